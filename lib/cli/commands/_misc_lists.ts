// `misc get-licenses`, `get-roles` and `get-tags`.

import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { jsonMode, readingCommand } from "../_command_kind.ts";
import { printJson } from "../_json_output.ts";
import { apyCommand } from "../apy_command.ts";
import { searchPaginationOptions } from "../options.ts";
import { printList } from "./_list_output.ts";
import { terminalLine } from "../_terminal_text.ts";

/** `misc get-licenses`: one page of the licenses the server offers, or all with `--json`. */
export function getLicensesCommand(): CommandUnknownOpts {
  const command = readingCommand(
    searchPaginationOptions(
      new Command("get-licenses")
        .description("List the licenses resources can have (one page)")
        .option("-f, --filter <text>", "Filter by title or name", ""),
    ),
    { list: true, what: "the licenses" },
  );
  apyCommand(command, async (manager, options) => {
    const filter = options.filter ? { filter: options.filter } : {};
    await printList(manager, options, {
      what: "license(s)",
      page: (paging) => manager.misc.getLicenses({ ...paging, ...filter }),
      all: (perPage) => manager.misc.licenses({ perPage, ...filter }),
      line: (license) => `${terminalLine(license.name)}: ${terminalLine(license.title)}`,
    });
  });
  return command;
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
  apyCommand(command, async (manager, options) => {
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
      manager.printInfo(`Roles of a ${terminalLine(type)}:`);
      for (const role of roles[type] ?? []) {
        const actions = role.permissions.map((permission) => terminalLine(permission.action));
        manager.printInfo(`  ${terminalLine(role.name)}: ${actions.join(", ")}`);
      }
    }
  });
  return command;
}

/** `misc get-tags`: one page of the tags of resources you can read, or all with `--json`. */
export function getTagsCommand(): CommandUnknownOpts {
  const command = readingCommand(
    searchPaginationOptions(
      new Command("get-tags")
        .description("List the tags of the records and collections you can read (one page)")
        .option("-f, --filter <text>", "Filter by name", "")
        .addOption(
          new Option("-t, --type <type>", "Only tags of this resource type")
            .choices(["record", "collection"] as const),
        ),
    ),
    { list: true, what: "the tags" },
  );
  apyCommand(command, async (manager, options) => {
    const params = {
      ...(options.filter ? { filter: options.filter } : {}),
      ...(options.type === undefined ? {} : { type: options.type }),
    };
    await printList(manager, options, {
      what: "tag(s)",
      page: (paging) => manager.misc.getTags({ ...paging, ...params }),
      all: (perPage) => manager.misc.tags({ perPage, ...params }),
      line: (tag) => terminalLine(tag.name),
    });
  });
  return command;
}
