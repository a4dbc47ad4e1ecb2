/**
 * The CLI's reusable parts (the `./cli/kit` export): the command tree, the CLI manager, the
 * command wrapper, the shared option sets, the output module, completion scripts and `--xmlhelp`,
 * for programs that build commands of their own on the CLI's.
 *
 * The CLI itself is the `./cli` export (`cli.ts`: `main`, and run as the main module the
 * `repo-apy` command). It is kept apart from these parts because a module's static imports all
 * load before it runs: an entry that also handed out these values would load commander, the
 * manager and the transport on every call, even for `--version`.
 *
 * @example Usage
 * ```ts
 * import { createProgram } from "./kit.ts";
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
