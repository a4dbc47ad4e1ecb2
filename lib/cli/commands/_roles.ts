// `add-user`, `remove-user`, `add-group-role`, `remove-group-role`, `add-tag` and `remove-tag` of
// records, collections, templates and groups (a group's users are its members): one
// implementation; only the help texts differ by type.

import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { RESOURCE_ROLES } from "../../http/protocol.ts";
import type { RepoRecord } from "../../model/record.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { apyCommand, dryRun, dryRunOption } from "../apy_command.ts";
import { idIdentifierOptions, parseTokenList, userIdOptions } from "../options.ts";
import { setOptionType } from "../_tree.ts";
import { onConflict, openRecord, resolveResourceId, resolveUser } from "./_records_common.ts";
import { type ManagedResources, type ManagedType, openResource } from "./_resources_common.ts";
import { terminalLine } from "../_terminal_text.ts";

/** A resource that has roles: a record, collection, template or group. */
export type RoleType = "record" | ManagedType;

/** Resources that give groups roles. */
type GroupRoleType = "record" | "collection" | "template";

/** Resources with tags. */
type TagType = "record" | "collection";

type Opened<T extends RoleType> = T extends "record" ? RepoRecord
  : T extends ManagedType ? ManagedResources[T]
  : never;

/** Opens the resource the options select; a collection, template or group with its metadata. */
async function openTarget<T extends RoleType>(
  manager: CLIRepoManager,
  type: T,
  options: object,
): Promise<Opened<T>> {
  if (type === "record") return await openRecord(manager, options) as Opened<T>;
  const resource = await openResource(manager, type as ManagedType, options);
  await resource.meta();
  return resource as Opened<T>;
}

/** Help texts of the commands: the records' as the reference client words them. */
const HELP = {
  addUser: (type: RoleType) =>
    type === "record"
      ? "Give a user a role in a record"
      : `${
        type === "group"
          ? "Add a user to a group as a member with a role"
          : `Give a user a role in a ${type}`
      } (an existing role is changed)`,
  removeUser: (type: RoleType) =>
    type === "group" ? "Remove a member from a group" : `Remove the role of a user in a ${type}`,
  addGroupRole: (type: RoleType) =>
    `Give a group a role in a ${type}${type === "record" ? "" : " (an existing role is changed)"}`,
};

function roleOption(type: RoleType) {
  return new Option("-p, --permission-new <role>", "Role to give")
    .choices(RESOURCE_ROLES[type]).default("member");
}

function withTarget<C extends CommandUnknownOpts>(command: C, type: RoleType): C {
  return idIdentifierOptions(command, type);
}

/** `<type> add-user`: gives a user a role (changes the role when the user has one already). */
export function addUserCommand(type: RoleType): CommandUnknownOpts {
  const command = userIdOptions(withTarget(
    new Command("add-user").description(HELP.addUser(type)).addOption(roleOption(type)),
    type,
  ));
  apyCommand(command, async (manager, options) => {
    const target = await openTarget(manager, type, options);
    const user = await resolveUser(manager, options);
    const role = options.permissionNew;
    await onConflict(async () => {
      await target.addUser(user.id, role);
      manager.output.info(`Gave ${user} the role '${role}' in the ${target}`);
    }, async () => {
      await target.changeUserRole(user.id, role);
      manager.output.info(`Changed the role of ${user} in the ${target} to '${role}'`);
    });
  });
  return command;
}

/** `<type> remove-user`: removes a user's role (a group's member). */
export function removeUserCommand(type: RoleType): CommandUnknownOpts {
  const command = dryRunOption(userIdOptions(withTarget(
    new Command("remove-user").description(HELP.removeUser(type)),
    type,
  )));
  apyCommand(command, async (manager, options) => {
    const target = await openTarget(manager, type, options);
    const user = await resolveUser(manager, options);
    if (dryRun(manager, `remove ${user} from the ${target}`)) return;
    await target.removeUser(user.id);
    manager.output.info(`Removed ${user} from the ${target}`);
  });
  return command;
}

/** `<type> add-group-role`: gives a group a role (changes it when the group has one). */
export function addGroupRoleCommand(type: GroupRoleType): CommandUnknownOpts {
  const command = idIdentifierOptions(
    withTarget(
      new Command("add-group-role").description(HELP.addGroupRole(type))
        .addOption(roleOption(type)),
      type,
    ),
    "group",
  );
  apyCommand(command, async (manager, options) => {
    const target = await openTarget(manager, type, options);
    const group = await resolveResourceId(manager, "group", options);
    const role = options.permissionNew;
    await onConflict(async () => {
      await target.addGroupRole(group.id, role);
      manager.output.info(`Gave the ${group.label} the role '${role}' in the ${target}`);
    }, async () => {
      await target.changeGroupRole(group.id, role);
      manager.output.info(`Changed the role of the ${group.label} in the ${target} to '${role}'`);
    });
  });
  return command;
}

/** `<type> remove-group-role`: removes a group's role. */
export function removeGroupRoleCommand(type: GroupRoleType): CommandUnknownOpts {
  const command = dryRunOption(idIdentifierOptions(
    withTarget(
      new Command("remove-group-role").description(`Remove the role of a group in a ${type}`),
      type,
    ),
    "group",
  ));
  apyCommand(command, async (manager, options) => {
    const target = await openTarget(manager, type, options);
    const group = await resolveResourceId(manager, "group", options);
    if (dryRun(manager, `remove the ${group.label} from the ${target}`)) return;
    await target.removeGroupRole(group.id);
    manager.output.info(`Removed the ${group.label} from the ${target}`);
  });
  return command;
}

/** `<type> add-tag`: adds tags (one change per tag, lower-cased); a tag there already is said. */
export function addTagCommand(type: TagType): CommandUnknownOpts {
  const tags = new Option("-t, --tag <tags>", "Tag, or comma-separated tags, to add")
    .argParser((value) => parseTokenList(value))
    .makeOptionMandatory();
  setOptionType(tags, "tokenlist");
  const command = withTarget(
    new Command("add-tag").description(`Add tags to a ${type}`).addOption(tags),
    type,
  );
  apyCommand(command, async (manager, options) => {
    const target = await openTarget(manager, type, options);
    for (const tag of options.tag) {
      const name = terminalLine(tag.toLowerCase());
      if (await target.checkTag(tag.toLowerCase())) {
        manager.output.info(`The ${target} has the tag '${name}' already`);
        continue;
      }
      await target.addTag(tag);
      manager.output.info(`Added the tag '${name}' to the ${target}`);
    }
  });
  return command;
}

/** `<type> remove-tag`: removes a tag. */
export function removeTagCommand(type: TagType): CommandUnknownOpts {
  const command = dryRunOption(withTarget(
    new Command("remove-tag")
      .description(`Remove a tag from a ${type}`)
      .requiredOption("-t, --tag <tag>", "The tag to remove"),
    type,
  ));
  apyCommand(command, async (manager, options) => {
    const target = await openTarget(manager, type, options);
    const tag = terminalLine(options.tag);
    if (!await target.checkTag(options.tag)) {
      manager.output.warning(`The ${target} has no tag '${tag}': nothing changed`);
      return;
    }
    if (dryRun(manager, `remove the tag '${tag}' from the ${target}`)) return;
    await target.removeTag(options.tag);
    manager.output.info(`Removed the tag '${tag}' from the ${target}`);
  });
  return command;
}

/**
 * The role commands of a type, as the records, collections and templates groups list them:
 * `add-user`, `remove-user`, `add-group-role`, `remove-group-role`.
 */
export function roleCommands(type: GroupRoleType): (() => CommandUnknownOpts)[] {
  return [
    () => addUserCommand(type),
    () => removeUserCommand(type),
    () => addGroupRoleCommand(type),
    () => removeGroupRoleCommand(type),
  ];
}

/** The tag commands of a type, as its group lists them: `add-tag`, `remove-tag`. */
export function tagCommands(type: TagType): (() => CommandUnknownOpts)[] {
  return [() => addTagCommand(type), () => removeTagCommand(type)];
}
