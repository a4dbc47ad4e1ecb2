import { assertEquals } from "../_assert.ts";
import { parseRetryAfter } from "../../lib/http/errors.ts";

const NOW = Date.parse("2020-01-01T00:00:00Z");

Deno.test("parseRetryAfter() reads seconds and HTTP dates, a past date as 0", () => {
  assertEquals(parseRetryAfter("3", NOW), 3000);
  assertEquals(parseRetryAfter(" 1.5 ", NOW), 1500);
  assertEquals(parseRetryAfter("Wed, 01 Jan 2020 00:00:05 GMT", NOW), 5000);
  assertEquals(parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", NOW), 0);
});

Deno.test("parseRetryAfter() ignores garbage and negative values (default backoff applies)", () => {
  for (const value of ["soon", "abc 12", "-1", "12abc", "Infinity", "", null]) {
    assertEquals(parseRetryAfter(value, NOW), undefined, String(value));
  }
});
