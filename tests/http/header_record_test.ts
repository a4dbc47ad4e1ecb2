// Request headers as a plain record: lower-case names, checked as `new Headers()` checks them.
import { assertEquals, assertThrows } from "../_assert.ts";
import { headerRecord } from "../../lib/http/_header_record.ts";

Deno.test("headerRecord(): every form of headers becomes one record with lower-case names", () => {
  const expected = { "content-type": "application/json", "kadi-chunk-index": "3" };
  assertEquals(
    headerRecord({ "Content-Type": "application/json", "Kadi-Chunk-Index": "3" }),
    expected,
  );
  assertEquals(
    headerRecord([["Content-Type", "application/json"], ["kadi-chunk-index", "3"]]),
    expected,
  );
  assertEquals(
    headerRecord(new Headers({ "CONTENT-TYPE": "application/json", "Kadi-Chunk-Index": "3" })),
    expected,
  );
  assertEquals(headerRecord(undefined), {});
  assertEquals(headerRecord({ "X-A": " padded\t" }), { "x-a": "padded" });
  assertEquals(headerRecord({ "X-A": "1", "x-a": "2" }), { "x-a": "1, 2" });
});

Deno.test("headerRecord(): a value that would end a line of the request head is refused, as by Headers", () => {
  for (const value of ["a\r\nInjected: 1", "a\nb", "a\0b"]) {
    assertThrows(() => headerRecord({ "X-A": value }), TypeError);
    assertThrows(() => new Headers({ "X-A": value }), TypeError);
  }
  for (const name of ["Bad Name", "a:b", ""]) {
    assertThrows(() => headerRecord({ [name]: "1" }), TypeError);
    assertThrows(() => new Headers({ [name]: "1" }), TypeError);
  }
});

Deno.test("headerRecord(): a record is taken or refused exactly as new Headers() takes or refuses it", () => {
  const values = ["v\r\n", "\n v \r", "\t\r\nv", "a\tb", "€", "caf\u00e9", "\u0100"];
  for (const value of values) {
    let expected: Record<string, string> | undefined;
    try {
      expected = Object.fromEntries(new Headers({ "X-A": value }));
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
    }
    if (expected === undefined) assertThrows(() => headerRecord({ "X-A": value }), TypeError);
    else assertEquals(headerRecord({ "X-A": value }), expected);
  }
});
