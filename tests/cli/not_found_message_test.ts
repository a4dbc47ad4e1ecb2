// A missing identifier is reported from ResourceNotFoundError's fields, not from the library's
// message text: rewording the library's message changes nothing the CLI prints.
import { assertEquals } from "../_assert.ts";
import { reportError } from "../../lib/cli/_errors.ts";
import { Output } from "../../lib/cli/output.ts";
import { ResourceNotFoundError } from "../../lib/resources/errors.ts";

Deno.test("a ResourceNotFoundError prints the CLI's line whatever the library's wording", () => {
  const lines: string[] = [];
  const output = new Output({ stdout: () => {}, stderr: (text) => lines.push(text) });
  const error = new ResourceNotFoundError("collection", "batch-1");
  Object.defineProperty(error, "message", { value: "reworded by the library" });
  assertEquals(reportError(error, output), 1);
  assertEquals(lines, [
    "Error: No collection with identifier 'batch-1' exists: check the identifier, or create it " +
    "with 'repo-apy collections create -i batch-1'\n",
  ]);
});
