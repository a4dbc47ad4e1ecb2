// Multi-line text blocks of the `show-info` commands. Each message line is printed on its own
// (`Output.info` prints one safe line per call and turns line breaks into `?`).

import { stringifyJson } from "../../http/_float_json.ts";
import type { CLIRepoManager } from "../cli_manager.ts";

/**
 * Prints `Description: <first line>` and the description's further lines indented, so a line of
 * a description cannot pass for another field.
 */
export function printDescription(manager: CLIRepoManager, description: unknown): void {
  const [first, ...rest] = String(description ?? "").split(/\r?\n/);
  manager.output.text(`Description: ${first}`);
  for (const line of rest) manager.output.text(`  ${line}`);
}

/**
 * Prints `value` as indented JSON, one message line per JSON line (JSON escapes line breaks and
 * control characters inside strings); whole numbers of float metadata keep their decimal point
 * (`1.0`), as the server sent them.
 */
export function printJsonLines(manager: CLIRepoManager, value: unknown): void {
  for (const line of stringifyJson(value ?? null, 2).split("\n")) manager.output.text(line);
}
