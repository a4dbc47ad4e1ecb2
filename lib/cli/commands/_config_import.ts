// `config import-kadiconfig [PATH]`: the Python client's `~/.kadiconfig` (INI) becomes our
// `~/.repoconfig` (TOML), every instance and the default, without printing a token.

import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { kadiconfigPath, parseKadiconfig } from "../../config/kadiconfig.ts";
import { configPath } from "../../config/path.ts";
import { writeConfig } from "../../config/write.ts";
import { ConfigurationError } from "../../errors.ts";
import { readBoundedText } from "../../import/read_bounded_text.ts";
import { contextOf } from "../_context.ts";

/** A config file is small; a bigger one is no config file. */
const MAX_KADICONFIG_BYTES = 1024 * 1024;

/** `config import-kadiconfig [PATH]`. */
export function importKadiconfigCommand(): CommandUnknownOpts {
  const command = new Command("import-kadiconfig")
    .description(
      "Convert the Python client's config file (~/.kadiconfig, or PATH) into this client's " +
        "(every instance and the default; written with mode 600)",
    )
    .argument("[path]", "The Python client's config file (default: ~/.kadiconfig)")
    .option("-f, --force", "Replace an existing config file");
  command.action((path, options, cmd) => importKadiconfig(path, options, cmd));
  return command;
}

/** Runs `config import-kadiconfig`: converts the file, never over an existing one unless `-f`. */
async function importKadiconfig(
  path: string | undefined,
  options: { force?: true },
  command: CommandUnknownOpts,
): Promise<void> {
  const { output } = contextOf(command);
  const source = path ?? kadiconfigPath();
  const target = configPath();
  if (options.force !== true && await exists(target)) {
    throw new ConfigurationError(
      `A config file already exists at ${target}: it was not replaced (add -f/--force to ` +
        "replace it)",
    );
  }
  if (!await exists(source)) {
    throw new ConfigurationError(
      `No config file of the Python client at ${source}: give its path`,
    );
  }
  const config = parseKadiconfig(await readBoundedText(source, MAX_KADICONFIG_BYTES), source);
  await writeConfig(target, config);
  const names = [...config.instances.keys()];
  output.info(
    `Imported ${names.length} instance(s) from ${source} into ${target}: ${
      names.map((name) => `'${name}'${name === config.global.default ? " (default)" : ""}`)
        .join(", ")
    }`,
  );
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, (error) => {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  });
}
