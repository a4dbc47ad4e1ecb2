// The transport's guarded answer bodies and bounded text reading (lib/http/_idle.ts, _body.ts).
import { assertEquals } from "../_assert.ts";
import { guardBody, IdleTimer } from "../../lib/http/_idle.ts";
import { readBoundedText, redactSecrets } from "../../lib/http/_body.ts";

Deno.test("guardBody: a reader with its own buffer (BYOB) sees the end of a body that is not a byte stream", async () => {
  // A Response built from bytes (the raw HTTP client's answers) has no byte stream: the guarded
  // body used to leave a BYOB read pending for ever at its end.
  using timer = new IdleTimer(60_000);
  const inner = new Response(new TextEncoder().encode('{"a":1}'));
  const reader = guardBody(inner, timer, "http://x").body!.getReader({ mode: "byob" });
  const first = await reader.read(new Uint8Array(16));
  assertEquals(new TextDecoder().decode(first.value), '{"a":1}');
  const last = await reader.read(new Uint8Array(first.value!.buffer));
  assertEquals(last.done, true);
});

Deno.test("readBoundedText: reads a guarded byte stream and a plain stream, cut at the bound", async () => {
  const text = "x".repeat(40_000);
  for (const plain of [false, true]) {
    const make = () => {
      const inner = new Response(text);
      return plain ? inner.body : guardBody(inner, new IdleTimer(60_000), "http://x").body;
    };
    assertEquals(await readBoundedText(make(), 1_000_000), { text, truncated: false });
    assertEquals(await readBoundedText(make(), 100), { text: text.slice(0, 100), truncated: true });
  }
});

Deno.test("redactSecrets: replaces the secret as is and URL-encoded, leaves other text alone", () => {
  const secret = "pat_a/b+c";
  assertEquals(
    redactSecrets(`a ${secret} b ${encodeURIComponent(secret)} c`, [secret]),
    "a REDACTED b REDACTED c",
  );
  assertEquals(redactSecrets("nothing here", [secret, "abc"]), "nothing here");
});

Deno.test("IdleTimer: activity after stop() starts nothing (no timer left behind)", () => {
  // The test sanitizer fails the test when a timer is still pending at its end.
  const timer = new IdleTimer(60_000);
  timer.pause();
  timer.touch();
  timer.stop();
  timer.touch();
  assertEquals(timer.fired, false);
});

Deno.test("readBoundedText: a size hint (Content-Length) that is wrong still reads the whole body", async () => {
  const text = '{"a":"' + "x".repeat(3000) + '"}';
  for (const hint of [1, 10, text.length, 100_000, Number.NaN, 0, -5]) {
    const body = guardBody(new Response(text), new IdleTimer(60_000), "http://x").body;
    assertEquals(await readBoundedText(body, 1_000_000, undefined, hint), {
      text,
      truncated: false,
    });
  }
});
