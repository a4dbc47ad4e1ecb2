// The timeout measures idle time: a slow upload that keeps moving never times out. The timer's
// rule runs on an injected clock; the senders' part (every piece written counts as activity) is
// counted, not timed.
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { Transport } from "../../lib/http/transport.ts";
import { TimeoutError } from "../../lib/http/errors.ts";
import { type IdleClock, IdleTimer } from "../../lib/http/_idle.ts";
import { largePutSender } from "../../lib/http/_put_sender.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";

/** A clock whose time moves only when the test says so, firing the timers that fall due. */
function fakeClock(): IdleClock & { advance(ms: number): void; pending(): number } {
  let now = 0;
  let next = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  return {
    now: () => now,
    set: (callback, ms) => {
      timers.set(next, { at: now + ms, callback });
      return next++;
    },
    clear: (id) => void timers.delete(id),
    hold: () => {},
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, timer]) => timer.at <= end)
          .sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].callback();
      }
      now = end;
    },
    pending: () => timers.size,
  };
}

Deno.test("IdleTimer: activity within the timeout keeps a long transfer alive; silence ends it", () => {
  const clock = fakeClock();
  using timer = new IdleTimer(4000, clock);
  // A 60 s transfer with a piece every 3 s never times out.
  for (let second = 0; second < 60; second += 3) {
    clock.advance(3000);
    timer.touch();
  }
  assertEquals(timer.fired, false);
  clock.advance(3999);
  assertEquals(timer.fired, false);
  clock.advance(1);
  assertEquals(timer.fired, true);
  assert(timer.controller.signal.aborted);
});

Deno.test("IdleTimer: a paused timer does not count, and a stopped one leaves no timer", () => {
  const clock = fakeClock();
  const timer = new IdleTimer(1000, clock);
  timer.pause();
  clock.advance(10_000);
  assertEquals(timer.fired, false);
  timer.touch();
  clock.advance(999);
  assertEquals(timer.fired, false);
  timer.stop();
  assertEquals(clock.pending(), 0);
  clock.advance(10_000);
  assertEquals(timer.fired, false);
});

Deno.test("the PUT sender counts every piece the server takes as activity", async () => {
  // A server that reads the body slowly, 64 KiB at a time.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const served = (async () => {
    const conn = await listener.accept();
    const buffer = new Uint8Array(65_536);
    let seen = 0;
    let head = -1;
    let text = "";
    while (head < 0 || seen < head + 4 + 4_000_000) {
      const read = await conn.read(buffer);
      if (read === null) break;
      if (head < 0) {
        text += new TextDecoder().decode(buffer.subarray(0, read));
        head = text.indexOf("\r\n\r\n");
      }
      seen += read;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await conn.write(new TextEncoder().encode("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}"));
    conn.close();
  })();
  let touched = 0;
  try {
    const send = largePutSender(undefined, () => Promise.reject(new Error("no fallback")));
    const response = await send(new URL(`http://127.0.0.1:${listener.addr.port}/data`), {
      method: "PUT",
      headers: {},
      body: new Uint8Array(4_000_000),
      idempotent: true,
      signal: new AbortController().signal,
      activity: () => touched++,
    });
    assertEquals(await response.json(), {});
    await served;
  } finally {
    listener.close();
  }
  // 4 MB in pieces of 256 KiB: at least one touch per piece.
  assert(touched >= Math.ceil(4_000_000 / 262_144), `${touched} touches`);
});

Deno.test("Transport: a server that stops answering still times out", async () => {
  await using server = await startServer({ faults: [{ path: "/info", delayMs: 1500 }] });
  await using transport = new Transport({
    settings: { host: server.url, pat: server.pat, timeout: 0.3 },
  });
  await assertRejects(() => transport.json("GET", "/info"), TimeoutError);
});

Deno.test("a direct upload read slowly by the server does not time out while the network buffers drain (issue 31)", async () => {
  // 3 MB read at 1 MB/s with a 0.5 s timeout: after the last write the buffers still hold most of
  // it for longer than the timeout, which is no silence of the server.
  await using server = await startServer({
    faults: [{ method: "PUT", path: /\/uploads\//, slowRequestBytesPerSecond: 1_000_000 }],
  });
  await using manager = new RepoManager({
    host: server.url,
    pat: server.pat,
    timeout: 0.5,
    retry: { maxAttempts: 1 },
  });
  const record = await manager.record({ identifier: "slow-upload", create: true });
  const path = await Deno.makeTempFile();
  try {
    await Deno.writeFile(path, new Uint8Array(3_000_000).fill(7));
    await record.uploadFile(path, { fileName: "slow.bin" });
    const [file] = (await record.getFiles()).items;
    assertEquals([file?.name, file?.size], ["slow.bin", 3_000_000]);
  } finally {
    await Deno.remove(path);
  }
});
