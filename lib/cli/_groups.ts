// The table of command groups: names, descriptions and aliases known without loading a group, and
// a loader per group, so a run imports only the group it uses (start-up time).

import type { Command, CommandUnknownOpts } from "@commander-js/extra-typings";
import { createGroup } from "./commands/_group.ts";

/** One top-level command group. */
export interface GroupEntry {
  /** Name on the command line. */
  name: string;
  /** One-line description (root help lists it without loading the group). */
  description: string;
  /** Other names of the group. */
  aliases: string[];
  /** Imports the group's module and returns its builder. */
  load(): Promise<() => Command>;
}

/** Every group, in the order root help lists them. */
export const GROUPS: readonly GroupEntry[] = [
  {
    name: "config",
    description: "Create and edit the config file with hosts and tokens",
    aliases: [],
    load: async () => (await import("./commands/config.ts")).configCommand,
  },
  {
    name: "records",
    description: "Manage records",
    aliases: [],
    load: async () => (await import("./commands/records.ts")).recordsCommand,
  },
  {
    name: "collections",
    description: "Manage collections",
    aliases: [],
    load: async () => (await import("./commands/collections.ts")).collectionsCommand,
  },
  {
    name: "templates",
    description: "Manage templates",
    aliases: [],
    load: async () => (await import("./commands/templates.ts")).templatesCommand,
  },
  {
    name: "groups",
    description: "Manage groups",
    aliases: [],
    load: async () => (await import("./commands/groups.ts")).groupsCommand,
  },
  {
    name: "users",
    description: "Manage users",
    aliases: [],
    load: async () => (await import("./commands/users.ts")).usersCommand,
  },
  {
    name: "misc",
    description: "Miscellaneous commands",
    aliases: ["miscellaneous"],
    load: async () => (await import("./commands/misc.ts")).miscCommand,
  },
];

/** The group `name` of {@linkcode GROUPS}, empty: its builder adds the commands. */
export function topGroup(name: string): Command {
  const entry = GROUPS.find((candidate) => candidate.name === name);
  if (entry === undefined) throw new TypeError(`No command group '${name}' in GROUPS`);
  const group = createGroup(entry.name, entry.description);
  for (const alias of entry.aliases) group.alias(alias);
  return group;
}

const examples: WeakMap<object, readonly string[]> = new WeakMap();

/** The usage examples `addCommands` gave `command` (none: an empty list). */
export function commandExamples(command: CommandUnknownOpts): readonly string[] {
  return examples.get(command) ?? [];
}

/** Adds the commands `builders` make to `group`, each with its usage examples at the end of its help. */
export function addCommands(
  group: Command,
  builders: readonly (() => CommandUnknownOpts)[],
  examplesByName: { readonly [command: string]: readonly string[] },
): Command {
  for (const build of builders) {
    const command = build();
    const lines = examplesByName[command.name()];
    if (lines) {
      examples.set(command, lines);
      command.addHelpText("after", `\nExamples:\n${lines.map((line) => `  $ ${line}`).join("\n")}`);
    }
    group.addCommand(command);
  }
  return group;
}
