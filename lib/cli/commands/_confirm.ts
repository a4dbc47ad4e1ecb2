// The `[y/N]` questions of the commands: asked on stderr, answered on the terminal; only `y` or
// `yes` says yes.

import { InputError } from "../../errors.ts";
import type { LineInput } from "../_input.ts";
import type { CLIRepoManager } from "../cli_manager.ts";

/** Asks `question [y/N]`; true only for `y` or `yes` (any case, spaces around ignored). */
export async function askYesNo(
  manager: CLIRepoManager,
  input: LineInput,
  question: string,
): Promise<boolean> {
  manager.output.prompt(`${question} [y/N] `);
  const answer = (await input.readLine())?.trim().toLowerCase();
  return answer === "y" || answer === "yes";
}

/**
 * The question of a sync's `--delete` before anything changes: refused when no one can answer
 * (not a terminal), else asked; `irreversible` adds that record files cannot be restored.
 */
export async function confirmDeletion(
  manager: CLIRepoManager,
  input: LineInput,
  what: string,
  irreversible: boolean,
): Promise<boolean> {
  if (!input.isTerminal()) {
    throw new InputError(
      `--delete would delete ${what}, and no one can be asked: add -y/--yes to confirm, or run --dry-run to see the list; nothing was changed`,
    );
  }
  return await askYesNo(
    manager,
    input,
    `Delete ${what}?${irreversible ? " This cannot be undone." : ""}`,
  );
}
