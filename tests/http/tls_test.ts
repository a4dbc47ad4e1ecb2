// TLS: ca_bundle adds a CA to the trust roots; verify = false skips verification.
import { assertEquals, assertRejects } from "../_assert.ts";
import { Transport } from "../../lib/http/transport.ts";
import { TlsError } from "../../lib/http/errors.ts";
import { withTlsServer } from "../_tls.ts";
import { POSIX_TOOLS } from "../_platform.ts";

Deno.test(
  "Transport trusts a server certificate signed by the CA in caBundle",
  POSIX_TOOLS,
  async () => {
    await withTlsServer(async ({ certs, server }) => {
      assertEquals(server.url.startsWith("https://"), true);
      await using plain = new Transport({ settings: { host: server.url, pat: server.pat } });
      await assertRejects(() => plain.json("GET", "/info"), TlsError);
      await using trusted = new Transport({
        settings: { host: server.url, pat: server.pat, caBundle: certs.caPath },
      });
      const info = await trusted.json<{ version: string }>("GET", "/info");
      assertEquals(typeof info.version, "string");
    });
  },
);

Deno.test(
  "Transport with verify = false talks to a server whose CA it does not know",
  POSIX_TOOLS,
  async () => {
    await withTlsServer(async ({ server }) => {
      await using insecure = new Transport({
        settings: { host: server.url, pat: server.pat, verify: false },
      });
      const info = await insecure.json<{ version: string }>("GET", "/info");
      assertEquals(typeof info.version, "string");
      const created = await insecure.json<{ id: number }>("POST", "/records", {
        json: { identifier: "tls-record", title: "TLS" },
      });
      assertEquals(typeof created.id, "number");
      assertEquals(server.log.at(-1)?.authorization, true);
    });
  },
);
