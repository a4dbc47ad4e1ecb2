// Pre-rendered `--help` texts (`_help.json`, written by `deno task help-cache`): `main()` prints
// `repo-apy <group> <command> --help` from there without loading commander and the group.

import { commandPath, walkCommands } from "./_tree.ts";

/** Help texts by command path without the program name (`""` is the root, `records create`). */
export type HelpTexts = { [path: string]: string };

/** The command path of `args` when they ask only for help (`records --help`), else undefined. */
export function helpRequest(args: readonly string[]): string | undefined {
  const last = args.at(-1);
  if (last !== "--help" && last !== "-h") return undefined;
  const path = args.slice(0, -1);
  if (path.some((arg) => arg.startsWith("-"))) return undefined;
  return path.join(" ");
}

/** The cached help of `path`, or undefined when the cache has none. */
export async function cachedHelp(path: string): Promise<string | undefined> {
  const { default: texts } = await import("./_help.json", { with: { type: "json" } });
  return (texts as HelpTexts)[path];
}

/**
 * Renders the help of every command of the full tree unwrapped, as commander writes it before
 * `layoutHelp()` fits it to a terminal.
 */
export async function renderHelpTexts(): Promise<HelpTexts> {
  const { createProgram } = await import("./program.ts");
  const { runCli } = await import("./run.ts");
  const texts: HelpTexts = {};
  for (const command of walkCommands(await createProgram({ version: "0" }))) {
    const path = commandPath(command).split(" ").slice(1);
    let text = "";
    const code = await runCli([...path, "--help"], {
      version: "0",
      helpWidth: Infinity,
      stdout: (chunk) => text += chunk,
      stderr: (chunk) => text += chunk,
    });
    if (code !== 0) throw new Error(`${path.join(" ")} --help exited ${code}`);
    texts[path.join(" ")] = text;
  }
  return texts;
}
