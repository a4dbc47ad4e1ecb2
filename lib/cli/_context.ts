// Per-run CLI context (output, prompt input, version, extra manager options), attached to the root
// command so that command builders keep simple signatures such as `recordsCommand(): Command`.

import type { CommandUnknownOpts } from "@commander-js/extra-typings";
import type { RepoManagerOptions } from "../manager/repo_manager.ts";
import { type LineInput, stdinInput } from "./_input.ts";
import { Output } from "./output.ts";

/** What every command of one CLI run shares. */
export interface CliContext {
  /** Where everything is printed. */
  output: Output;
  /** Where prompts read their answers. */
  input: LineInput;
  /** The CLI's version. */
  version: string;
  /** Extra options for every manager the CLI creates (tests: `retry`, `log`). */
  managerOptions: Partial<RepoManagerOptions>;
  /** The run's command line, program name first: an interrupted run names it to continue. */
  command?: readonly string[];
}

const contexts = new WeakMap<CommandUnknownOpts, CliContext>();

/** Attaches the context to the root command. */
export function setContext(root: CommandUnknownOpts, context: CliContext): void {
  contexts.set(root, context);
}

/** The context of the tree `command` belongs to; a process-wide default when none was set. */
export function contextOf(command: CommandUnknownOpts): CliContext {
  let current: CommandUnknownOpts | null = command;
  while (current !== null) {
    const context = contexts.get(current);
    if (context !== undefined) return context;
    current = current.parent;
  }
  let root: CommandUnknownOpts = command;
  while (root.parent !== null) root = root.parent;
  const context: CliContext = {
    output: new Output(),
    input: stdinInput(),
    version: root.version() ?? "0.0.0",
    managerOptions: {},
  };
  contexts.set(root, context);
  return context;
}
