// The JSON writers of reading commands: one value, or a stream of items written as they arrive
// from a library iterator (one JSON array, or one object per line), never holding all pages.

import type { JsonMode } from "./_command_kind.ts";
import type { Output } from "./output.ts";
import { stringifyJson } from "../http/_float_json.ts";

/**
 * Prints one value: indented JSON (`json`) or compact on one line (`jsonl`).
 */
export function printJson(output: Output, value: unknown, mode: JsonMode): void {
  // Whole numbers of float metadata are printed as floats (3.0), as the server sent them.
  output.data(stringifyJson(value, mode === "jsonl" ? undefined : 2));
}

/**
 * Streams `items` as they arrive: `json` writes one JSON array (the same text as
 * `JSON.stringify(array, null, 2)`, item by item), `jsonl` one compact object per line. Each item
 * is written before the next is asked for, so an iterator over pages reads only a few pages ahead
 * of what is printed (the library's `PAGES_AHEAD`); a closed stdout ends the iteration (and the
 * requests).
 *
 * @returns How many items were written.
 */
export async function streamJson(
  output: Output,
  items: AsyncIterable<unknown> | Iterable<unknown>,
  mode: JsonMode,
): Promise<number> {
  let count = 0;
  for await (const item of items) {
    if (mode === "jsonl") {
      output.writeOut(`${stringifyJson(item)}\n`);
    } else {
      const text = stringifyJson(item, 2).replaceAll("\n", "\n  ");
      output.writeOut(`${count === 0 ? "[\n" : ",\n"}  ${text}`);
    }
    count++;
  }
  if (mode === "json") output.writeOut(count === 0 ? "[]\n" : "\n]\n");
  return count;
}
