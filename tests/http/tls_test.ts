// TLS: ca_bundle adds a CA to the trust roots; verify = false skips verification; both come from
// the environment too (REPO_APY_CA_BUNDLE, REPO_APY_VERIFY).
import { assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { Transport } from "../../lib/http/transport.ts";
import { ConfigurationError } from "../../lib/errors.ts";
import { TlsError } from "../../lib/http/errors.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
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

Deno.test(
  "environment-only settings take the CA bundle and verify from REPO_APY_CA_BUNDLE and REPO_APY_VERIFY (issue 31)",
  POSIX_TOOLS,
  async () => {
    await withTlsServer(async ({ certs, server }) => {
      const vars: { [name: string]: string } = {
        REPO_APY_HOST: server.url,
        REPO_APY_PAT: server.pat,
      };
      const managed = () => new RepoManager({ env: (name) => vars[name] });
      {
        await using untrusted = managed();
        const error = await assertRejects(() => untrusted.info(), TlsError);
        // No config file was read: the message names what applies, not its 'ca_bundle'.
        assertStringIncludes(error.message, "REPO_APY_CA_BUNDLE");
        assertStringIncludes(error.message, "are not read when REPO_APY_HOST and REPO_APY_PAT");
      }
      vars.REPO_APY_CA_BUNDLE = certs.caPath;
      {
        await using trusted = managed();
        assertEquals(typeof (await trusted.info()).version, "string");
        assertEquals((await trusted.settings()).caBundle, certs.caPath);
      }
      delete vars.REPO_APY_CA_BUNDLE;
      vars.REPO_APY_VERIFY = "false";
      {
        await using insecure = managed();
        assertEquals(typeof (await insecure.info()).version, "string");
      }
      vars.REPO_APY_VERIFY = "maybe";
      {
        await using wrong = managed();
        const error = await assertRejects(() => wrong.info(), ConfigurationError);
        assertStringIncludes(error.message, "REPO_APY_VERIFY must be true or false");
      }
    });
  },
);
