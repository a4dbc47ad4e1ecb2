// The one list of command groups: names, descriptions and aliases known without loading a group,
// and a loader per group, so a run imports only the group it uses (start-up time). The command
// modules never import this list (they get their empty group from it), so loading makes no cycle.

import type { Command } from "@commander-js/extra-typings";
import { createGroup, onlyCommand } from "./commands/_group.ts";

/** One top-level command group. */
export interface GroupEntry {
  /** Name on the command line. */
  name: string;
  /** One-line description (root help lists it without loading the group). */
  description: string;
  /** Other names of the group. */
  aliases: string[];
  /** Imports the group's module and returns its builder, which fills the empty group. */
  load(): Promise<(group: Command) => Command>;
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

/** The group of `entry`, empty: its name, description and aliases (root help lists it so). */
export function emptyGroup(entry: GroupEntry): Command {
  const group = createGroup(entry.name, entry.description);
  for (const alias of entry.aliases) group.alias(alias);
  return group;
}

/** The group of `entry` with its commands (imports the group's module). */
export async function loadGroup(entry: GroupEntry): Promise<Command> {
  return (await entry.load())(emptyGroup(entry));
}

/**
 * The group of `entry` with the command called `command` only, when it has one (a run that names
 * it needs no other); with every command otherwise.
 */
export async function loadGroupFor(entry: GroupEntry, command: string): Promise<Command> {
  return (await entry.load())(onlyCommand(emptyGroup(entry), command));
}
