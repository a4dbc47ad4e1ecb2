// `records add-tag`, `remove-tag`, `add-user`, `remove-user`, `add-group-role` and
// `remove-group-role`.

import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { RESOURCE_ROLES } from "../../http/protocol.ts";
import { apyCommand, dryRun, dryRunOption } from "../apy_command.ts";
import { idIdentifierOptions, parseTokenList, userIdOptions } from "../options.ts";
import { setOptionType } from "../_tree.ts";
import {
  describe,
  onConflict,
  openRecord,
  recordOptions,
  resolveResourceId,
  resolveUser,
} from "./_records_common.ts";

function roleOption() {
  return new Option("-p, --permission-new <role>", "Role to give")
    .choices(RESOURCE_ROLES.record).default("member" as typeof RESOURCE_ROLES.record[number]);
}

/** `records add-tag`: adds tags (one change per tag, lower-cased). */
export function addTagCommand(): CommandUnknownOpts {
  const tags = new Option("-t, --tag <tags>", "Tag, or comma-separated tags, to add")
    .argParser((value) => parseTokenList(value))
    .makeOptionMandatory();
  setOptionType(tags, "tokenlist");
  const command = recordOptions(
    new Command("add-tag").description("Add tags to a record").addOption(tags),
  );
  apyCommand(command, async (manager, options) => {
    const record = await openRecord(manager, options);
    for (const tag of options.tag) {
      const name = tag.toLowerCase();
      if (await record.checkTag(name)) {
        manager.printInfo(`The ${describe(record)} has the tag '${name}' already`);
        continue;
      }
      await record.addTag(tag);
      manager.printInfo(`Added the tag '${name}' to the ${describe(record)}`);
    }
  });
  return command;
}

/** `records remove-tag`: removes a tag. */
export function removeTagCommand(): CommandUnknownOpts {
  const command = recordOptions(
    new Command("remove-tag")
      .description("Remove a tag from a record")
      .requiredOption("-t, --tag <tag>", "The tag to remove"),
  );
  dryRunOption(command);
  apyCommand(command, async (manager, options) => {
    const record = await openRecord(manager, options);
    if (!await record.checkTag(options.tag)) {
      manager.printWarning(`The ${describe(record)} has no tag '${options.tag}': nothing changed`);
      return;
    }
    if (dryRun(manager, `remove the tag '${options.tag}' from the ${describe(record)}`)) return;
    await record.removeTag(options.tag);
    manager.printInfo(`Removed the tag '${options.tag}' from the ${describe(record)}`);
  });
  return command;
}

/** `records add-user`: gives a user a role (changes the role when the user has one). */
export function addUserCommand(): CommandUnknownOpts {
  const command = userIdOptions(recordOptions(
    new Command("add-user").description("Give a user a role in a record").addOption(roleOption()),
  ));
  apyCommand(command, async (manager, options) => {
    const record = await openRecord(manager, options);
    const user = await resolveUser(manager, options);
    const role = options.permissionNew;
    await onConflict(async () => {
      await record.addUser(user.id, role);
      manager.printInfo(`Gave ${user} the role '${role}' in the ${describe(record)}`);
    }, async () => {
      await record.changeUserRole(user.id, role);
      manager.printInfo(`Changed the role of ${user} in the ${describe(record)} to '${role}'`);
    });
  });
  return command;
}

/** `records remove-user`: removes a user's role. */
export function removeUserCommand(): CommandUnknownOpts {
  const command = dryRunOption(userIdOptions(recordOptions(
    new Command("remove-user").description("Remove the role of a user in a record"),
  )));
  apyCommand(command, async (manager, options) => {
    const record = await openRecord(manager, options);
    const user = await resolveUser(manager, options);
    if (dryRun(manager, `remove ${user} from the ${describe(record)}`)) return;
    await record.removeUser(user.id);
    manager.printInfo(`Removed ${user} from the ${describe(record)}`);
  });
  return command;
}

/** `records add-group-role`: gives a group a role (changes it when the group has one). */
export function addGroupRoleCommand(): CommandUnknownOpts {
  const command = idIdentifierOptions(
    recordOptions(
      new Command("add-group-role")
        .description("Give a group a role in a record")
        .addOption(roleOption()),
    ),
    "group",
  );
  apyCommand(command, async (manager, options) => {
    const record = await openRecord(manager, options);
    const group = await resolveResourceId(manager, "group", options);
    const role = options.permissionNew;
    await onConflict(async () => {
      await record.addGroupRole(group.id, role);
      manager.printInfo(`Gave the ${group.label} the role '${role}' in the ${describe(record)}`);
    }, async () => {
      await record.changeGroupRole(group.id, role);
      manager.printInfo(
        `Changed the role of the ${group.label} in the ${describe(record)} to '${role}'`,
      );
    });
  });
  return command;
}

/** `records remove-group-role`: removes a group's role. */
export function removeGroupRoleCommand(): CommandUnknownOpts {
  const command = dryRunOption(idIdentifierOptions(
    recordOptions(
      new Command("remove-group-role").description("Remove the role of a group in a record"),
    ),
    "group",
  ));
  apyCommand(command, async (manager, options) => {
    const record = await openRecord(manager, options);
    const group = await resolveResourceId(manager, "group", options);
    if (dryRun(manager, `remove the ${group.label} from the ${describe(record)}`)) return;
    await record.removeGroupRole(group.id);
    manager.printInfo(`Removed the ${group.label} from the ${describe(record)}`);
  });
  return command;
}
