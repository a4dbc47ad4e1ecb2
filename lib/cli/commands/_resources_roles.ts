// `add-user`, `remove-user`, `add-group-role`, `remove-group-role`, `add-tag` and `remove-tag` of
// collections, templates and groups (a group's users are its members).

import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { RESOURCE_ROLES } from "../../http/protocol.ts";
import { apyCommand, dryRun, dryRunOption } from "../apy_command.ts";
import { idIdentifierOptions, parseTokenList, userIdOptions } from "../options.ts";
import { setOptionType } from "../_tree.ts";
import { onConflict, resolveResourceId, resolveUser } from "./_records_common.ts";
import { type ManagedType, openResource, printable, resourceOptions } from "./_resources_common.ts";

function roleOption(type: ManagedType) {
  return new Option("-p, --permission-new <role>", "Role to give")
    .choices(RESOURCE_ROLES[type]).default("member");
}

/** `<type> add-user`: gives a user a role (changes the role when the user has one already). */
export function addUserCommand(type: ManagedType): CommandUnknownOpts {
  const what = type === "group" ? "Add a user to a group as a member with a role" : (
    `Give a user a role in a ${type}`
  );
  const command = userIdOptions(resourceOptions(
    new Command("add-user")
      .description(`${what} (an existing role is changed)`)
      .addOption(roleOption(type)),
    type,
  ));
  apyCommand(command, async (manager, options) => {
    const resource = await openResource(manager, type, options);
    const user = await resolveUser(manager, options);
    const role = options.permissionNew;
    await resource.meta();
    await onConflict(async () => {
      await resource.addUser(user.id, role);
      manager.printInfo(`Gave ${user} the role '${role}' in the ${resource}`);
    }, async () => {
      await resource.changeUserRole(user.id, role);
      manager.printInfo(`Changed the role of ${user} in the ${resource} to '${role}'`);
    });
  });
  return command;
}

/** `<type> remove-user`: removes a user's role (a group's member). */
export function removeUserCommand(type: ManagedType): CommandUnknownOpts {
  const command = dryRunOption(userIdOptions(resourceOptions(
    new Command("remove-user").description(
      type === "group" ? "Remove a member from a group" : `Remove the role of a user in a ${type}`,
    ),
    type,
  )));
  apyCommand(command, async (manager, options) => {
    const resource = await openResource(manager, type, options);
    const user = await resolveUser(manager, options);
    await resource.meta();
    if (dryRun(manager, `remove ${user} from the ${resource}`)) return;
    await resource.removeUser(user.id);
    manager.printInfo(`Removed ${user} from the ${resource}`);
  });
  return command;
}

/** `<type> add-group-role`: gives a group a role (changes it when the group has one). */
export function addGroupRoleCommand(type: "collection" | "template"): CommandUnknownOpts {
  const command = idIdentifierOptions(
    resourceOptions(
      new Command("add-group-role")
        .description(`Give a group a role in a ${type} (an existing role is changed)`)
        .addOption(roleOption(type)),
      type,
    ),
    "group",
  );
  apyCommand(command, async (manager, options) => {
    const resource = await openResource(manager, type, options);
    const group = await resolveResourceId(manager, "group", options);
    const role = options.permissionNew;
    await resource.meta();
    await onConflict(async () => {
      await resource.addGroupRole(group.id, role);
      manager.printInfo(`Gave the ${group.label} the role '${role}' in the ${resource}`);
    }, async () => {
      await resource.changeGroupRole(group.id, role);
      manager.printInfo(`Changed the role of the ${group.label} in the ${resource} to '${role}'`);
    });
  });
  return command;
}

/** `<type> remove-group-role`: removes a group's role. */
export function removeGroupRoleCommand(type: "collection" | "template"): CommandUnknownOpts {
  const command = dryRunOption(idIdentifierOptions(
    resourceOptions(
      new Command("remove-group-role").description(`Remove the role of a group in a ${type}`),
      type,
    ),
    "group",
  ));
  apyCommand(command, async (manager, options) => {
    const resource = await openResource(manager, type, options);
    const group = await resolveResourceId(manager, "group", options);
    await resource.meta();
    if (dryRun(manager, `remove the ${group.label} from the ${resource}`)) return;
    await resource.removeGroupRole(group.id);
    manager.printInfo(`Removed the ${group.label} from the ${resource}`);
  });
  return command;
}

/** `collections add-tag`: adds tags (one change per tag, lower-cased). */
export function addTagCommand(type: "collection"): CommandUnknownOpts {
  const tags = new Option("-t, --tag <tags>", "Tag, or comma-separated tags, to add")
    .argParser((value) => parseTokenList(value))
    .makeOptionMandatory();
  setOptionType(tags, "tokenlist");
  const command = resourceOptions(
    new Command("add-tag").description(`Add tags to a ${type}`).addOption(tags),
    type,
  );
  apyCommand(command, async (manager, options) => {
    const resource = await openResource(manager, type, options);
    await resource.meta();
    for (const tag of options.tag) {
      await resource.addTag(tag);
      manager.printInfo(`Added the tag '${printable(tag.toLowerCase())}' to the ${resource}`);
    }
  });
  return command;
}

/** `collections remove-tag`: removes a tag. */
export function removeTagCommand(type: "collection"): CommandUnknownOpts {
  const command = dryRunOption(resourceOptions(
    new Command("remove-tag")
      .description(`Remove a tag from a ${type}`)
      .requiredOption("-t, --tag <tag>", "The tag to remove"),
    type,
  ));
  apyCommand(command, async (manager, options) => {
    const resource = await openResource(manager, type, options);
    const tag = printable(options.tag);
    if (!await resource.checkTag(options.tag)) {
      manager.printWarning(`The ${resource} has no tag '${tag}': nothing changed`);
      return;
    }
    if (dryRun(manager, `remove the tag '${tag}' from the ${resource}`)) return;
    await resource.removeTag(options.tag);
    manager.printInfo(`Removed the tag '${tag}' from the ${resource}`);
  });
  return command;
}
