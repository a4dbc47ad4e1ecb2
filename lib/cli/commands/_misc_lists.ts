// `misc get-licenses`, `get-roles` and `get-tags`.

import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { jsonMode, readingCommand } from "../_command_kind.ts";
import { printJson } from "../_json_output.ts";
import { apyCommand } from "../apy_command.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { terminalLine } from "../_terminal_text.ts";
import { filteredListCommand } from "./_filtered_list.ts";

/** `misc get-licenses`: one page of the licenses the server offers, or all with `--json`. */
export function getLicensesCommand(): CommandUnknownOpts {
  return filteredListCommand({
    name: "get-licenses",
    description: "List the licenses resources can have (one page)",
    filterHelp: "Filter by title or name",
    json: "the licenses",
    what: "license(s)",
    page: (manager, query) => manager.misc.getLicenses(query),
    all: (manager, query) => manager.misc.licenses(query),
    line: (license) => `${terminalLine(license.name)}: ${terminalLine(license.title)}`,
  });
}

/** `misc get-roles`: the roles of each resource type and what they allow. */
export function getRolesCommand(): CommandUnknownOpts {
  const command = readingCommand(
    new Command("get-roles")
      .description("List the roles of each resource type and their permissions")
      .addOption(
        new Option("-t, --item-type <type>", "Only this resource type")
          .choices(["record", "collection", "template", "group"] as const),
      ),
    { what: "the roles, keyed by resource type, as the server sends them," },
  );
  apyCommand(command, getRoles);
  return command;
}

/** The options of `misc get-roles`. */
interface GetRolesOptions {
  itemType?: "record" | "collection" | "template" | "group";
}

/** Runs `misc get-roles`. */
async function getRoles(manager: CLIRepoManager, options: GetRolesOptions): Promise<void> {
  const roles = await manager.misc.getRoles();
  const types = options.itemType === undefined ? Object.keys(roles) : [options.itemType];
  const mode = jsonMode(options);
  if (mode !== undefined) {
    printJson(
      manager.output,
      Object.fromEntries(types.map((type) => [type, roles[type] ?? []])),
      mode,
    );
    return;
  }
  for (const type of types) {
    manager.output.text(`Roles of a ${terminalLine(type)}:`);
    for (const role of roles[type] ?? []) {
      const actions = role.permissions.map((permission) => terminalLine(permission.action));
      manager.output.text(`  ${terminalLine(role.name)}: ${actions.join(", ")}`);
    }
  }
}

/** `misc get-tags`: one page of the tags of resources you can read, or all with `--json`. */
export function getTagsCommand(): CommandUnknownOpts {
  return filteredListCommand({
    name: "get-tags",
    description: "List the tags of the records and collections you can read (one page)",
    filterHelp: "Filter by name",
    options: [
      new Option("-t, --type <type>", "Only tags of this resource type").choices(TAG_TYPES),
    ],
    json: "the tags",
    what: "tag(s)",
    query: (values) => {
      const { type } = values as { type?: (typeof TAG_TYPES)[number] };
      return type === undefined ? {} : { type };
    },
    page: (manager, query) => manager.misc.getTags(query),
    all: (manager, query) => manager.misc.tags(query),
    line: (tag) => terminalLine(tag.name),
  });
}

const TAG_TYPES = ["record", "collection"] as const;
