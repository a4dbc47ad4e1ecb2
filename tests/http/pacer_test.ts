// Rate limits: 429 is retried within the wait budget, with jitter, and pauses the whole process.
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { Transport } from "../../lib/http/transport.ts";
import { Pacer } from "../../lib/http/pacer.ts";
import { RequestError } from "../../lib/http/errors.ts";

/** A pacer on a fake clock: sleeps are recorded and released by the test. */
function fakePacer(options: { autoAdvance?: boolean } = {}) {
  let time = 0;
  const sleeps: { ms: number; resolve: () => void }[] = [];
  const pacer = new Pacer({
    now: () => time,
    random: () => 0.5,
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        if (options.autoAdvance) {
          time += ms;
          return resolve();
        }
        sleeps.push({ ms, resolve });
      }),
  });
  return {
    pacer,
    sleeps,
    advance(ms: number) {
      time += ms;
      for (const sleep of sleeps.splice(0)) sleep.resolve();
    },
  };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((r) => setTimeout(r, 1));
  assert(condition(), "condition never became true");
}

Deno.test("Transport retries 429 beyond maxAttempts while the total wait allows", async () => {
  await using server = await startServer({
    faults: [{ path: "/info", status: 429, retryAfter: "1", times: 8 }],
  });
  const { pacer } = fakePacer({ autoAdvance: true });
  await using transport = new Transport({
    settings: { host: server.url, pat: server.pat },
    retry: { maxAttempts: 5 },
    pacer,
  });
  await transport.json("GET", "/info");
  assertEquals(server.log.filter((entry) => entry.path.endsWith("/info")).length, 9);
});

Deno.test("Transport gives up on 429 when the total wait budget is spent", async () => {
  await using server = await startServer({
    faults: [{ path: "/info", status: 429, retryAfter: "10" }],
  });
  const { pacer } = fakePacer({ autoAdvance: true });
  await using transport = new Transport({
    settings: { host: server.url, pat: server.pat },
    retry: { maxTotalWaitMs: 60_000 },
    pacer,
  });
  const error = await assertRejects(() => transport.json("GET", "/info"), RequestError);
  assertEquals(error.status, 429);
  // 10 s plus 25 % jitter per retry: four retries fit into one minute.
  assertEquals(server.log.filter((entry) => entry.path.endsWith("/info")).length, 5);
});

Deno.test("Pacer: a 429 pauses every request of the process, with jitter on Retry-After", async () => {
  await using server = await startServer({
    faults: [{ path: "/info", status: 429, retryAfter: "4", times: 1 }],
  });
  const fake = fakePacer();
  const settings = { host: server.url, pat: server.pat };
  await using first = new Transport({ settings, pacer: fake.pacer });
  await using second = new Transport({ settings, pacer: fake.pacer });
  const limited = first.json("GET", "/info");
  await until(() => fake.sleeps.length === 1);
  assertEquals(fake.sleeps[0]?.ms, 5000); // 4 s + 25 % jitter (random 0.5 of 50 %)
  const other = second.json("GET", "/licenses");
  await until(() => fake.sleeps.length === 2);
  assertEquals(fake.sleeps[1]?.ms, 5000); // the other transport waits too
  assertEquals(server.log.filter((entry) => entry.path.endsWith("/licenses")).length, 0);
  fake.advance(5000);
  // Starts are now spaced apart: one request goes, the next waits its turn.
  await until(() => fake.sleeps.length === 1);
  fake.advance(1000);
  await Promise.all([limited, other]);
  assertEquals(server.log.filter((entry) => entry.path.endsWith("/licenses")).length, 1);
});
