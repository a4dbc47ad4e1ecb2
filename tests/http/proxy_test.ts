// With verify = false (the node:https path), requests go through the HTTPS_PROXY tunnel.
import net from "node:net";
import { assertEquals } from "../_assert.ts";
import { Transport } from "../../lib/http/transport.ts";
import { withTlsServer } from "../_tls.ts";
import { POSIX_TOOLS } from "../_platform.ts";

/** A tiny CONNECT proxy on 127.0.0.1 that counts its tunnels. */
async function startProxy() {
  const targets: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.once("data", (head: Uint8Array) => {
      const authority = new TextDecoder().decode(head).split("\r\n")[0]?.split(" ")[1] ?? "";
      targets.push(authority);
      const [host, port] = authority.split(":");
      const upstream = net.connect(Number(port), host, () => {
        sockets.add(upstream);
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        client.pipe(upstream);
        upstream.pipe(client);
      });
      upstream.on("error", () => client.destroy());
      client.on("error", () => upstream.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    targets,
    [Symbol.asyncDispose]: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

Deno.test(
  "Transport with verify = false sends requests through the proxy",
  POSIX_TOOLS,
  async () => {
    await withTlsServer(async ({ server }) => {
      await using proxy = await startProxy();
      await using transport = new Transport({
        settings: { host: server.url, pat: server.pat, verify: false, proxy: proxy.url },
      });
      const info = await transport.json<{ version: string }>("GET", "/info");
      assertEquals(typeof info.version, "string");
      assertEquals(proxy.targets, [new URL(server.url).host]);
    });
  },
);

Deno.test(
  "Transport with verify = false honours HTTPS_PROXY from the environment",
  POSIX_TOOLS,
  async () => {
    await withTlsServer(async ({ dir, server }) => {
      await using proxy = await startProxy();
      const script = `${dir}/info.ts`;
      const transportUrl = new URL("../../lib/http/transport.ts", import.meta.url).href;
      await Deno.writeTextFile(
        script,
        `import { Transport } from "${transportUrl}";\n` +
          `await using t = new Transport({ settings: { host: "${server.url}", pat: "${server.pat}", verify: false } });\n` +
          `const info = await t.json("GET", "/info");\n` +
          `await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(info)));\n`,
      );
      const denoDir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
      const output = await new Deno.Command("deno", {
        args: [
          "run",
          "--quiet",
          "--allow-env=HTTPS_PROXY,https_proxy,NO_PROXY,no_proxy",
          "--allow-net=127.0.0.1",
          `--allow-read=${dir},.`,
          script,
        ],
        clearEnv: true,
        // No update check: Deno would send it through the proxy too.
        env: { HTTPS_PROXY: proxy.url, DENO_DIR: denoDir, HOME: dir, DENO_NO_UPDATE_CHECK: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      assertEquals(new TextDecoder().decode(output.stderr), "");
      assertEquals(JSON.parse(new TextDecoder().decode(output.stdout)).version, "1.13.0");
      assertEquals(proxy.targets, [new URL(server.url).host]);
    });
  },
);
