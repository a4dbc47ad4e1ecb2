/**
 * Starts the local repository server standalone, e.g. for a demo:
 * `deno task serve --port 8765 --pat pat_demo`. Prints the host and the token and runs until
 * SIGINT/SIGTERM.
 *
 * Options: `--port <n>` (default 8765), `--hostname <addr>` (default 127.0.0.1), `--pat <token>`,
 * `--quota <bytes>`, `--cert <pem file>` and `--key <pem file>` (HTTPS).
 *
 * @example Usage
 * ```ts ignore
 * // deno run --allow-net --allow-read --allow-write lib/testing/serve.ts --port 8765 --pat pat_demo
 * ```
 *
 * @module
 */
import { startServer, type TestServer } from "./server.ts";

/**
 * Parses `--name value` pairs.
 *
 * @param args Command-line arguments.
 * @returns Option values by name.
 *
 * @example Usage
 * ```ts
 * import { parseServeArgs } from "./serve.ts";
 * console.log(parseServeArgs(["--port", "8765", "--pat=pat_demo"])); // { port: "8765", pat: "pat_demo" }
 * ```
 */
export function parseServeArgs(args: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith("--")) throw new Error(`unexpected argument "${arg}"; use --name value`);
    const [name, inline] = arg.slice(2).split("=", 2) as [string, string | undefined];
    const value = inline ?? args[++i];
    if (value === undefined) throw new Error(`option --${name} needs a value`);
    out[name] = value;
  }
  return out;
}

/**
 * Starts the server from command-line arguments.
 *
 * @param args Command-line arguments.
 * @returns The running server.
 *
 * @example Usage
 * ```ts
 * import { serve } from "./serve.ts";
 * const server = await serve(["--port", "0", "--pat", "pat_demo"]);
 * console.log(server.pat); // "pat_demo"
 * await server.close();
 * ```
 */
export async function serve(args: readonly string[]): Promise<TestServer> {
  const opts = parseServeArgs(args);
  const tls = opts.cert !== undefined && opts.key !== undefined
    ? { cert: await Deno.readTextFile(opts.cert), key: await Deno.readTextFile(opts.key) }
    : undefined;
  return await startServer({
    port: Number(opts.port ?? 8765),
    hostname: opts.hostname ?? "127.0.0.1",
    ...(opts.pat !== undefined ? { pat: opts.pat } : {}),
    ...(opts.quota !== undefined ? { quota: Number(opts.quota) } : {}),
    ...(tls !== undefined ? { tls } : {}),
  });
}

if (import.meta.main) {
  const server = await serve(Deno.args);
  const out = new TextEncoder();
  await Deno.stdout.write(out.encode(`host: ${server.url}\npat: ${server.pat}\n`));
  const stop = async () => {
    await server.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
}
