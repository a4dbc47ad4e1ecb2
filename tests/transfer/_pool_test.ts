import { assertEquals, assertRejects } from "../_assert.ts";
import { runPool } from "../../lib/transfer/_pool.ts";

Deno.test("runPool() runs at most limit tasks at once and pulls items lazily", async () => {
  let running = 0;
  let peak = 0;
  let pulled = 0;
  async function* items() {
    for (let i = 0; i < 10; i++) {
      pulled++;
      // At most `limit` items are held by tasks plus the one being produced.
      assertEquals(pulled - done <= 4, true);
      yield i;
    }
  }
  let done = 0;
  await runPool(3, items(), async () => {
    running++;
    peak = Math.max(peak, running);
    await new Promise((resolve) => setTimeout(resolve, 2));
    running--;
    done++;
  });
  assertEquals([peak, done], [3, 10]);
});

Deno.test("runPool() starts nothing after a failure, waits for running tasks and throws", async () => {
  const started: number[] = [];
  const finished: number[] = [];
  const error = await assertRejects(
    () =>
      runPool(2, [0, 1, 2, 3, 4, 5], async (item) => {
        started.push(item);
        if (item === 1) throw new Error("boom");
        await new Promise((resolve) => setTimeout(resolve, 10));
        finished.push(item);
      }),
    Error,
  );
  assertEquals(error.message, "boom");
  assertEquals(started, [0, 1]);
  assertEquals(finished, [0]);
});

Deno.test("runPool() stops when the signal aborts", async () => {
  const controller = new AbortController();
  const seen: number[] = [];
  await assertRejects(
    () =>
      runPool(1, [0, 1, 2, 3], (item) => {
        seen.push(item);
        if (item === 1) controller.abort(new RangeError("stop"));
        return Promise.resolve();
      }, { signal: controller.signal }),
    RangeError,
  );
  assertEquals(seen, [0, 1]);
});
