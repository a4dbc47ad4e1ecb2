/**
 * The CLI's reusable parts (the `./cli` export): `main`, the command tree, the CLI manager, the
 * command wrapper, the shared option sets, the output module, completion scripts and `--xmlhelp`.
 *
 * Run as the main module it is the `repo-apy` command itself, so
 * `deno install -g -n repo-apy <permissions> jsr:@repo/apy/cli` installs the CLI (README).
 *
 * @example Usage
 * ```ts
 * import { createProgram } from "./mod.ts";
 * const program = await createProgram({ version: "1.0.0" });
 * console.log(program.name()); // "repo-apy"
 * ```
 *
 * @module
 */

export {
  type ApyAction,
  apyCommand,
  type ApyCommandOptions,
  type ApyOptions,
  dryRun,
  dryRunOption,
  everydayOptions,
  isDryRun,
} from "./apy_command.ts";
export { CLIRepoManager, type CLIRepoManagerOptions } from "./cli_manager.ts";
export { COMPLETION_SHELLS, completionScript, type CompletionShell } from "./completions.ts";
export { main, type MainOptions } from "./main.ts";
export {
  CLI_IDENTITY_TYPES,
  fileIdOptions,
  type FileIdValue,
  fileIdValue,
  type IdentifiedType,
  type IdIdentifierOptions,
  idIdentifierOptions,
  type IdIdentifierValue,
  idIdentifierValue,
  parseInteger,
  parseTokenList,
  searchPaginationOptions,
  userIdOptions,
  type UserIdValue,
  userIdValue,
} from "./options.ts";
export {
  createProgress,
  formatBytes,
  type FormatBytesOptions,
  formatDuration,
  Output,
  type OutputStreams,
  type Progress,
  type ProgressOptions,
  type Verbosity,
  VERBOSITY_LEVELS,
} from "./output.ts";
export { createProgram, PROGRAM_NAME, type ProgramOptions } from "./program.ts";
export { runCli, type RunCliOptions, withInterrupts } from "./run.ts";
export { escapeXml, xmlHelp } from "./xml_help.ts";

import { runProcess } from "./_entry.ts";

if (import.meta.main) await runProcess();
