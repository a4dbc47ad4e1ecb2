/**
 * The `config` group: creates and edits the config file (`~/.repoconfig` or `$REPO_APY_CONFIG`).
 *
 * @module
 */

import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { configTokens, maskHost, shownHost, shownName } from "../../config/mask.ts";
import { configPath } from "../../config/path.ts";
import { readConfig } from "../../config/read.ts";
import { selectInstance } from "../../config/select.ts";
import { writeConfig } from "../../config/write.ts";
import { ConfigurationError, InputError } from "../../errors.ts";
import { changingCommand, jsonMode, readingCommand } from "../_command_kind.ts";
import { printJson } from "../_json_output.ts";
import { contextOf } from "../_context.ts";
import { everydayOptions } from "../apy_command.ts";
import { activateAutocompletionCommand } from "./_autocompletion.ts";
import {
  ask,
  checkNewInstance,
  editConfig,
  FIRST_INSTANCE,
  hostProblem,
  maskPat,
  patProblem,
} from "./_config_edit.ts";
import { getRepoInfoCommand } from "./_repo_info.ts";
import { importKadiconfigCommand } from "./_config_import.ts";

const HOST_QUESTION = "Host of the repository (for example https://repo.example)";
const PAT_QUESTION = "Personal access token";

/**
 * Builds the `config` group: `create`, `set-host`, `set-pat`, `add-instance`,
 * `change-default-instance`, `rename-instance`, `show-instances`, `activate-autocompletion` and
 * `get-repo-info`. Prompts read stdin, so answers can be piped.
 */
export function configCommand(group: Command): Command {
  group.addCommand(changingCommand(createCommand()));
  group.addCommand(changingCommand(setHostCommand()));
  group.addCommand(changingCommand(setPatCommand()));
  group.addCommand(changingCommand(addInstanceCommand()));
  group.addCommand(changingCommand(changeDefaultInstanceCommand()));
  group.addCommand(changingCommand(renameInstanceCommand()));
  group.addCommand(showInstancesCommand());
  group.addCommand(changingCommand(activateAutocompletionCommand()));
  group.addCommand(changingCommand(importKadiconfigCommand()));
  // `get-kadi-info` is the reference client's name.
  group.addCommand(getRepoInfoCommand().alias("get-kadi-info"));
  // `-V`, `-q/--quiet` and `--progress` on every command, as on the other groups.
  for (const command of group.commands) {
    if (!command.options.some((option) => option.long === "--quiet")) everydayOptions(command);
  }
  return group;
}

function self(command: unknown): CommandUnknownOpts {
  return command as CommandUnknownOpts;
}

/** The `--host` value trimmed (undefined when not given); InputError when it is no valid host. */
function hostOption(host: string | undefined): string | undefined {
  if (host === undefined) return undefined;
  const trimmed = host.trim();
  const problem = hostProblem(trimmed);
  if (problem !== undefined) throw new InputError(problem);
  return trimmed;
}

/**
 * Sets the host or the token of an instance (`instance`, or the default one) to what `value`
 * gives, asked only once the instance is known; returns the instance's name and the value.
 */
function setInstanceField(
  cmd: CommandUnknownOpts,
  instance: string | undefined,
  field: "host" | "pat",
  value: () => Promise<string>,
): Promise<{ name: string; value: string }> {
  return editConfig(cmd, async (config, path) => {
    const { name, section } = selectInstance(config, path, instance);
    const text = await value();
    section[field] = text;
    return { name, value: text };
  });
}

function createCommand(): CommandUnknownOpts {
  const command = new Command("create").description(
    `Create the config file with an empty instance '${FIRST_INSTANCE}'`,
  );
  command.action((_options, cmd) => createConfigFile(self(cmd)));
  return command;
}

/** Runs `config create`: a config file with one empty instance, where none is. */
async function createConfigFile(command: CommandUnknownOpts): Promise<void> {
  const { output } = contextOf(command);
  const path = configPath();
  const link = await Deno.lstat(path).then((info) => info, (error) => {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  });
  if (link?.isSymlink === true) await refuseDanglingLink(path);
  if (link !== undefined) {
    throw new ConfigurationError(
      `A config file already exists at ${path}: edit it with 'repo-apy config set-host' / ` +
        `'set-pat' / 'add-instance', or move it away first`,
    );
  }
  await writeConfig(path, {
    global: { default: FIRST_INSTANCE, extra: {} },
    instances: new Map([[FIRST_INSTANCE, { host: "", pat: "", extra: {} }]]),
  });
  output.info(`Created the config file ${path}`);
  output.info("Next: run 'repo-apy config set-host' and 'repo-apy config set-pat'");
}

/** A symbolic link whose target is missing gets its own message: it names where it points. */
async function refuseDanglingLink(path: string): Promise<void> {
  const target = await Deno.readLink(path);
  const dangling = await Deno.stat(path).then(() => false, (error) => {
    if (error instanceof Deno.errors.NotFound) return true;
    throw error;
  });
  if (!dangling) return;
  throw new ConfigurationError(
    `${path} is a dangling symbolic link: it points to ${target}, which does not exist. Remove ` +
      `the link (rm ${path}) and run 'repo-apy config create' again, or set REPO_APY_CONFIG to ` +
      `the path the config file should have`,
  );
}

function setHostCommand(): CommandUnknownOpts {
  const command = new Command("set-host")
    .description("Set the host of an instance (asks for it unless --host is given)")
    .option("-I, --instance <name>", "Instance to change (default: the default instance)")
    .option("-H, --host <url>", "The host, for example https://repo.example");
  command.action(async (options, cmd) => {
    const context = contextOf(self(cmd));
    const { name, value } = await setInstanceField(
      self(cmd),
      options.instance,
      "host",
      async () =>
        hostOption(options.host) ?? await ask(context, HOST_QUESTION, { check: hostProblem }),
    );
    context.output.info(`Set the host of instance '${name}' to ${maskHost(value)}`);
  });
  return command;
}

function setPatCommand(): CommandUnknownOpts {
  const command = new Command("set-pat")
    .description("Set the personal access token of an instance (asks for it; pipe it to stdin)")
    .option("-I, --instance <name>", "Instance to change (default: the default instance)");
  command.action(async (options, cmd) => {
    const context = contextOf(self(cmd));
    const { name, value } = await setInstanceField(
      self(cmd),
      options.instance,
      "pat",
      () => ask(context, PAT_QUESTION, { hidden: true, check: patProblem }),
    );
    context.output.info(
      `Set the personal access token of instance '${name}' to ${maskPat(value, 5, "*")}`,
    );
  });
  return command;
}

function addInstanceCommand(): CommandUnknownOpts {
  const command = new Command("add-instance")
    .description("Add an instance (asks for its token, then its host)")
    .requiredOption("-I, --instance <name>", "Name of the new instance")
    .option("-H, --host <url>", "The host, for example https://repo.example");
  command.action((options, cmd) => addInstance(options, self(cmd)));
  return command;
}

/** Runs `config add-instance`: asks for the token (and the host unless given). */
async function addInstance(
  options: { instance: string; host?: string },
  command: CommandUnknownOpts,
): Promise<void> {
  const context = contextOf(command);
  const name = options.instance;
  const becameDefault = await editConfig(command, async (config, path) => {
    checkNewInstance(config, name, path);
    const given = hostOption(options.host);
    const pat = await ask(context, PAT_QUESTION, { hidden: true, check: patProblem });
    const host = given ?? await ask(context, HOST_QUESTION, { check: hostProblem });
    config.instances.set(name, { host, pat, extra: {} });
    const missingDefault = config.global.default === undefined ||
      !config.instances.has(config.global.default) || config.global.default === "";
    if (missingDefault) config.global.default = name;
    return missingDefault;
  });
  context.output.info(`Added the instance '${name}'${becameDefault ? " (now the default)" : ""}`);
}

function changeDefaultInstanceCommand(): CommandUnknownOpts {
  const command = new Command("change-default-instance")
    .description("Make an instance the default one")
    .requiredOption("-I, --instance <name>", "Instance to make the default");
  command.action(async (options, cmd) => {
    const { output } = contextOf(self(cmd));
    await editConfig(self(cmd), (config, path) => {
      selectInstance(config, path, options.instance);
      config.global.default = options.instance;
    });
    output.info(`The default instance is now '${options.instance}'`);
  });
  return command;
}

function renameInstanceCommand(): CommandUnknownOpts {
  const command = new Command("rename-instance")
    .description("Rename an instance")
    .requiredOption("-I, --instance <name>", "Instance to rename")
    .requiredOption("-N, --instance-new <name>", "New name of the instance");
  command.action(async (options, cmd) => {
    const { output } = contextOf(self(cmd));
    const { instance: from, instanceNew: to } = options;
    await editConfig(self(cmd), (config, path) => {
      selectInstance(config, path, from);
      checkNewInstance(config, to, path);
      config.instances = new Map(
        [...config.instances].map(([name, section]) => [name === from ? to : name, section]),
      );
      if (config.global.default === from) config.global.default = to;
    });
    output.info(`Renamed the instance '${from}' to '${to}'`);
  });
  return command;
}

function showInstancesCommand(): CommandUnknownOpts {
  const command = readingCommand(
    new Command("show-instances").description(
      "List the instances of the config file and the default one",
    ),
    {
      what: '{"path", "default" (name or null), "instances": [{"name", "host", "default"}]} ' +
        "(never a token)",
    },
  );
  command.action((options, cmd) => showInstances(options, self(cmd)));
  return command;
}

/** Runs `config show-instances`: names and hosts, never a token. */
async function showInstances(options: object, command: CommandUnknownOpts): Promise<void> {
  const { output } = contextOf(command);
  const path = configPath();
  const config = await readConfig(path, { warn: (message) => output.warning(message) });
  const fallback = config.global.default;
  // Neither a host nor a name is shown where it holds a token (pasted into the wrong place).
  const known = configTokens(config);
  const name = (entry: string) => shownName(entry, known);
  const mode = jsonMode(options);
  if (mode !== undefined) {
    const instances = [...config.instances].map(([entry, section]) => ({
      name: name(entry),
      host: section.host === undefined ? null : shownHost(section.host, known),
      default: entry === fallback,
    }));
    printJson(
      output,
      { path, default: fallback === undefined ? null : name(fallback), instances },
      mode,
    );
    return;
  }
  output.text(`Instances in ${path}:`);
  const width = Math.max(0, ...[...config.instances.keys()].map((entry) => name(entry).length));
  for (const [entry, section] of config.instances) {
    const host = section.host === undefined || section.host === ""
      ? "(no host)"
      : shownHost(section.host, known);
    output.data(`${entry === fallback ? "*" : " "} ${name(entry).padEnd(width)}  ${host}`);
  }
  output.text(
    fallback === undefined ? "No default instance" : `Default instance: ${name(fallback)}`,
  );
}
