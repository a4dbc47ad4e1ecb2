// Helpers of the `config` group: load-modify-save of the config file, prompts, masking, host checks.

import type { CommandUnknownOpts } from "@commander-js/extra-typings";
import { configTokens, holdsToken } from "../../config/mask.ts";
import { configPath } from "../../config/path.ts";
import { readConfig } from "../../config/read.ts";
import type { RepoConfig } from "../../config/types.ts";
import { writeConfig } from "../../config/write.ts";
import { InputError } from "../../errors.ts";
import { checkSettingText } from "../../http/setting_text.ts";
import { type CliContext, contextOf } from "../_context.ts";

/** Name of the instance `config create` writes. */
export const FIRST_INSTANCE = "my_instance";

/** Reads the config file, lets `change` modify it, writes it back; returns what `change` returned. */
export async function editConfig<T>(
  command: CommandUnknownOpts,
  change: (config: RepoConfig, path: string) => T | Promise<T>,
): Promise<T> {
  const { output } = contextOf(command);
  const path = configPath();
  const config = await readConfig(path, { warn: (message) => output.warning(message) });
  const result = await change(config, path);
  await writeConfig(path, config);
  return result;
}

/** Masks a token: the first `keep` characters (at most half of it), then `fill`. */
export function maskPat(pat: string, keep: number, fill: "*" | "***"): string {
  const shown = pat.slice(0, Math.min(keep, Math.floor(pat.length / 2)));
  return fill === "*" ? shown.padEnd(pat.length, "*") : `${shown}***`;
}

/** Returns why `value` is not an http(s) URL with a host, or `undefined` when it is one. */
export function hostProblem(value: string): string | undefined {
  if (holdsToken(value)) {
    return "The host looks like a personal access token (not shown): give the repository's URL, " +
      "for example 'https://repo.example', and the token with 'repo-apy config set-pat'";
  }
  const control = controlProblem(value, "the host");
  if (control !== undefined) return control;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `'${value}' is not a URL: write it with its scheme, for example 'https://repo.example'`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return `'${value}' must start with 'https://' or 'http://'`;
  }
  if (url.hostname === "") return `'${value}' has no host name, for example 'https://repo.example'`;
  return undefined;
}

/** Returns why `value` cannot be a token (a control character), or `undefined`. */
export function patProblem(value: string): string | undefined {
  return controlProblem(value, "the personal access token");
}

function controlProblem(value: string, setting: string): string | undefined {
  try {
    checkSettingText(value, setting, "given");
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Asks until `check` accepts the answer (`check` returns a problem or `undefined`). */
export async function ask(
  context: CliContext,
  question: string,
  options: { hidden?: boolean; check?: (value: string) => string | undefined } = {},
): Promise<string> {
  const { output, input } = context;
  // Piped answers are read without printing the questions (stderr stays clean for scripts).
  const terminal = input.isTerminal();
  while (true) {
    if (terminal) output.prompt(`${question}: `);
    const line = await input.readLine({ hidden: options.hidden ?? false });
    if (terminal && (options.hidden === true || line === null)) output.prompt("\n");
    if (line === null) {
      throw new InputError(
        `No answer to '${question}' (end of input): type it when asked, or pipe it to stdin`,
      );
    }
    const value = line.trim();
    const problem = value === "" ? "The value must not be empty" : options.check?.(value);
    if (problem === undefined) return value;
    output.error(`Error: ${problem}`);
  }
}

/** Throws when `name` cannot be a new instance of `config`. */
export function checkNewInstance(config: RepoConfig, name: string, path: string): void {
  if (name === "global") {
    throw new InputError(
      "'global' is the table of shared settings, not an instance name: choose another name",
    );
  }
  if (name.trim() === "") throw new InputError("The instance name must not be empty");
  if (holdsToken(name, configTokens(config))) {
    throw new InputError(
      "The instance name looks like a personal access token (not shown): choose a name such as " +
        `'${FIRST_INSTANCE}', and give the token when asked for it`,
    );
  }
  if (config.instances.has(name)) {
    throw new InputError(
      `The instance '${name}' already exists in ${path}: choose another name, or change it with ` +
        `'repo-apy config set-host -I ${name}' / 'set-pat -I ${name}'`,
    );
  }
}
