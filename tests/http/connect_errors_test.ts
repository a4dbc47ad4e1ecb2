// Connection failures: TLS fails at once, an unreachable host gets one quick retry (said at
// info level), an https:// host that speaks plain HTTP gets a hint.
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { Transport } from "../../lib/http/transport.ts";
import { ConnectionError, TlsError } from "../../lib/http/errors.ts";
import type { Logger } from "../../lib/http/log.ts";
import { withTlsServer } from "../_tls.ts";
import { POSIX_TOOLS } from "../_platform.ts";

function recordingLog(): Logger & { lines: [string, string][] } {
  const lines: [string, string][] = [];
  return {
    lines,
    debug: (message) => void lines.push(["debug", message]),
    info: (message) => void lines.push(["info", message]),
    warning: (message) => void lines.push(["warning", message]),
    error: (message) => void lines.push(["error", message]),
  };
}

const retries = (log: { lines: [string, string][] }) =>
  log.lines.filter(([, message]) => / retry \d| trying once more /.test(message));

Deno.test("Transport fails at once on a TLS error, without retries", POSIX_TOOLS, async () => {
  await withTlsServer(async ({ server }) => {
    const log = recordingLog();
    await using transport = new Transport({
      settings: { host: server.url, pat: server.pat },
      log,
      retry: { minDelayMs: 1, maxDelayMs: 5 },
    });
    await assertRejects(() => transport.json("GET", "/info"), TlsError);
    assertEquals(retries(log), []);
  });
});

Deno.test("Transport retries a refused connection once, and says so at info level", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  const log = recordingLog();
  await using transport = new Transport({
    settings: { host: `http://127.0.0.1:${port}`, pat: "pat_x" },
    log,
    retry: { minDelayMs: 1, maxDelayMs: 5, maxAttempts: 5 },
  });
  const error = await assertRejects(() => transport.json("POST", "/records"), ConnectionError);
  assert(error.unreachable);
  assertStringIncludes(error.message, "refused");
  assertEquals(retries(log).map(([level]) => level), ["info"]);
});

Deno.test("Transport hints at http:// when an https:// host answers in plain HTTP", async () => {
  await using server = await startServer();
  const host = server.url.replace("http://", "https://");
  await using transport = new Transport({ settings: { host, pat: server.pat } });
  const error = await assertRejects(() => transport.json("GET", "/info"), TlsError);
  assertStringIncludes(error.message, `set 'host' to ${server.url}`);
});
