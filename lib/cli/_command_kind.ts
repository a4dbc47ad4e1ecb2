// Every command declares whether it reads (and so offers `--json`/`--jsonl`) or changes things.
// The declaration is a property of the command object, set by the builder, so a test can walk the
// tree and fail for a command that declares nothing, or reads without the JSON options.

import { type CommandUnknownOpts, Option } from "@commander-js/extra-typings";

/** What a command does: `reads` (prints data, has `--json`/`--jsonl`) or `changes`. */
export type CommandKind = "reads" | "changes";

/** How a reading command prints: `json` (one document), `jsonl` (one object per line). */
export type JsonMode = "json" | "jsonl";

const kinds = new WeakMap<object, CommandKind>();
const lists = new WeakSet<object>();

/** Options of {@linkcode readingCommand}. */
export interface ReadingOptions {
  /**
   * A list command (with `-p/--page`): without `-p`, `--json`/`--jsonl` walk every page through
   * the library's iterator; with `-p`, only that page is printed.
   */
  list?: boolean;
  /** What `--json` prints, for the help (default: "the result as the server sends it"). */
  what?: string;
  /** The help of `--jsonl` (default: `Print <what> as JSON on one line`). */
  jsonlHelp?: string;
  /** Options the JSON flags exclude (attribute names, e.g. `pipe`). */
  conflicts?: string[];
}

const LIST_HELP =
  "\nJSON output (--json, --jsonl): without -p/--page, every page is walked and the " +
  "items are streamed as one JSON array (--json) or one object per line (--jsonl); with " +
  "-p/--page, --json prints that page as the server sends it ({items, _pagination}) and --jsonl " +
  "its items. Field names are the server's.";

/**
 * Declares `command` a reading command and adds `--json` and `--jsonl`. A list command gets help
 * on paging, and its `-p/--page` and `-n/--per-page` stay unset (`undefined`) when not given, so the action can tell
 * "walk every page" from "this page".
 */
export function readingCommand<C extends CommandUnknownOpts>(
  command: C,
  options: ReadingOptions = {},
): C {
  const { list = false, what = "the result as the server sends it", conflicts = [] } = options;
  const jsonlHelp = options.jsonlHelp ??
    (list ? "Print one JSON object per line on stdout" : `Print ${what} as JSON on one line`);
  kinds.set(command, "reads");
  command.addOption(
    new Option("--json", `Print ${what} as JSON on stdout`).conflicts(["jsonl", ...conflicts]),
  );
  command.addOption(
    new Option("--jsonl", jsonlHelp).conflicts(conflicts),
  );
  if (list) {
    lists.add(command);
    command.addHelpText("after", LIST_HELP);
    command.hook("preAction", (self) => {
      for (const name of ["page", "perPage"]) {
        if (self.getOptionValueSource(name) === "default") self.setOptionValue(name, undefined);
      }
    });
  }
  return command;
}

/** Declares `command` a command that changes something (no `--json`/`--jsonl` required). */
export function changingCommand<C extends CommandUnknownOpts>(command: C): C {
  kinds.set(command, "changes");
  return command;
}

/** Wraps command builders so that each built command is declared as changing. */
export function changing(
  ...builders: (() => CommandUnknownOpts)[]
): (() => CommandUnknownOpts)[] {
  return builders.map((build) => () => changingCommand(build()));
}

/** The declared kind of a command, or `undefined` when it declares none. */
export function commandKind(command: CommandUnknownOpts): CommandKind | undefined {
  return kinds.get(command);
}

/** Whether `command` was declared a list command (`readingCommand(…, { list: true })`). */
export function isListCommand(command: CommandUnknownOpts): boolean {
  return lists.has(command);
}

/** The JSON mode chosen by `--json`/`--jsonl`, or `undefined` for text output. */
export function jsonMode(values: object): JsonMode | undefined {
  const { json, jsonl } = values as { json?: unknown; jsonl?: unknown };
  if (jsonl === true) return "jsonl";
  if (json === true) return "json";
  return undefined;
}
