// TLS smoke test of the local server (needs --allow-run=openssl).
import { assertEquals, assertRejects } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { makeCertificates } from "../_tls.ts";
import { POSIX_TOOLS } from "../_platform.ts";

Deno.test("startServer({ tls }) serves HTTPS trusted through the CA", POSIX_TOOLS, async () => {
  const dir = await Deno.makeTempDir();
  try {
    const certs = await makeCertificates(dir);
    await using server = await startServer({ tls: { cert: certs.cert, key: certs.key } });
    assertEquals(server.url.startsWith("https://127.0.0.1:"), true);
    const client = Deno.createHttpClient({ caCerts: [await Deno.readTextFile(certs.caPath)] });
    try {
      const response = await fetch(`${server.url}/api/v1/info`, {
        client,
        headers: { Authorization: `Bearer ${server.pat}` },
      });
      assertEquals(await response.json(), { version: "1.13.0" });
      await assertRejects(() => fetch(`${server.url}/api/v1/info`), TypeError);
    } finally {
      client.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
