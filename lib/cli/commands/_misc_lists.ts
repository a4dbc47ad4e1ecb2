// `misc get-licenses`, `get-roles` and `get-tags`.

import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { apyCommand } from "../apy_command.ts";
import { searchPaginationOptions } from "../options.ts";
import { pageParams, printable, printPage } from "./_resources_common.ts";

/** `misc get-licenses`: one page of the licenses the server offers. */
export function getLicensesCommand(): CommandUnknownOpts {
  const command = searchPaginationOptions(
    new Command("get-licenses")
      .description("List the licenses resources can have (one page)")
      .option("-f, --filter <text>", "Filter by title or name", "")
      .option("--json", "Print the page as the server sends it (JSON) on stdout"),
  );
  apyCommand(command, async (manager, options) => {
    const query = { ...pageParams(options), ...(options.filter ? { filter: options.filter } : {}) };
    printPage(manager, await manager.misc.getLicenses(query), {
      what: "license(s)",
      json: options.json,
      line: (license) => `${printable(license.name)}: ${printable(license.title)}`,
    });
  });
  return command;
}

/** `misc get-roles`: the roles of each resource type and what they allow. */
export function getRolesCommand(): CommandUnknownOpts {
  const command = new Command("get-roles")
    .description("List the roles of each resource type and their permissions")
    .addOption(
      new Option("-t, --item-type <type>", "Only this resource type")
        .choices(["record", "collection", "template", "group"] as const),
    )
    .option("--json", "Print the roles as the server sends them (JSON) on stdout");
  apyCommand(command, async (manager, options) => {
    const roles = await manager.misc.getRoles();
    const types = options.itemType === undefined ? Object.keys(roles) : [options.itemType];
    if (options.json === true) {
      manager.output.json(Object.fromEntries(types.map((type) => [type, roles[type] ?? []])));
      return;
    }
    for (const type of types) {
      manager.printInfo(`Roles of a ${printable(type)}:`);
      for (const role of roles[type] ?? []) {
        const actions = role.permissions.map((permission) => printable(permission.action));
        manager.printInfo(`  ${printable(role.name)}: ${actions.join(", ")}`);
      }
    }
  });
  return command;
}

/** `misc get-tags`: one page of the tags of resources you can read. */
export function getTagsCommand(): CommandUnknownOpts {
  const command = searchPaginationOptions(
    new Command("get-tags")
      .description("List the tags of the records and collections you can read (one page)")
      .option("-f, --filter <text>", "Filter by name", "")
      .addOption(
        new Option("-t, --type <type>", "Only tags of this resource type")
          .choices(["record", "collection"] as const),
      )
      .option("--json", "Print the page as the server sends it (JSON) on stdout"),
  );
  apyCommand(command, async (manager, options) => {
    const query = {
      ...pageParams(options),
      ...(options.filter ? { filter: options.filter } : {}),
      ...(options.type === undefined ? {} : { type: options.type }),
    };
    printPage(manager, await manager.misc.getTags(query), {
      what: "tag(s)",
      json: options.json,
      line: (tag) => printable(tag.name),
    });
  });
  return command;
}
