// `create`, `edit` and `delete` of collections, templates and groups: one builder per command,
// parameterised by the resource type.

import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { RepoApyError } from "../../errors.ts";
import { apyCommand, dryRun, dryRunOption } from "../apy_command.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { requireSure } from "./_records_common.ts";
import {
  type ManagedResource,
  type ManagedType,
  openResource,
  resourceOptions,
} from "./_resources_common.ts";
import { missingOptionFails } from "../_errors.ts";
import { TEMPLATE_KINDS, templateData } from "./_templates_data.ts";
import { terminalLine } from "../_terminal_text.ts";

const VISIBILITIES = ["private", "public"] as const;

/** `<type> create`: get-or-create by identifier (templates also take `-y/--type` and `-d/--data`). */
export function createResourceCommand(type: ManagedType): CommandUnknownOpts {
  const command = missingOptionFails(new Command("create"))
    .description(`Create a ${type}, or open it when the identifier exists already`)
    .option("-t, --title <title>", `Title of the ${type} (default: the identifier)`)
    .requiredOption("-i, --identifier <identifier>", `Identifier of the ${type}`);
  if (type === "template") {
    command
      .addOption(
        new Option("-y, --type <type>", "Type of a new template").choices(TEMPLATE_KINDS)
          .default("record"),
      )
      .option(
        "-d, --data <json>",
        "Content of a new template as JSON (default: {} for record, [] for extras templates); " +
          "malformed JSON fails (exit 1)",
      );
  } else {
    command.addOption(
      new Option("-v, --visibility <visibility>", `Visibility of a new ${type}`)
        .choices(VISIBILITIES).default("private"),
    );
  }
  command
    .option("-p, --pipe", `Print only the id of the ${type} on stdout`)
    .option("-e, --exit-not-created", `Exit with code 1 when the ${type} existed already`);
  apyCommand(command, (manager, options) => createResource(manager, options, type));
  return command;
}

/** The options of `<type> create` (`-y/--type` and `-D/--data` only for templates). */
interface CreateResourceOptions {
  identifier: string;
  title?: string;
  visibility?: string;
  type?: string;
  data?: string;
  pipe?: true;
  exitNotCreated?: true;
}

/** Creates the resource, or reports the one of that identifier (its title set to `-t`). */
async function createResource(
  manager: CLIRepoManager,
  options: CreateResourceOptions,
  type: ManagedType,
): Promise<void> {
  const metadata: { [field: string]: unknown } = {};
  if (options.title !== undefined) metadata.title = options.title;
  if (options.visibility !== undefined) metadata.visibility = options.visibility;
  if (type === "template") {
    metadata.type = options.type;
    metadata.data = templateData(options.type ?? "record", options.data);
  }
  const resource = await openCreated(manager, type, options.identifier, metadata);
  if (resource.created) {
    manager.output.info(`Created the ${resource}`);
  } else {
    const meta = await resource.meta();
    if (options.title !== undefined && options.title !== meta.title) {
      await resource.edit({ title: options.title });
      manager.output.info(`Changed the title of the ${resource}`);
    }
    manager.output.info(`The ${resource} exists already`);
  }
  if (options.pipe === true) manager.output.data(String(resource.id));
  if (options.exitNotCreated === true && !resource.created) {
    throw new RepoApyError(
      `Nothing was created: the ${resource} existed already (-e/--exit-not-created)`,
    );
  }
}

async function openCreated(
  manager: CLIRepoManager,
  type: ManagedType,
  identifier: string,
  metadata: { [field: string]: unknown },
): Promise<ManagedResource> {
  const selector = { identifier, create: true, ...metadata };
  return type === "collection"
    ? await manager.collection(selector)
    : type === "template"
    ? await manager.template(selector)
    : await manager.group(selector);
}

/**
 * `<type> edit`: one PATCH per changed attribute (`-v`, `-t`, `-d`; for templates the title is
 * `-i/--title`, as in the reference client, because `-t` picks the template).
 */
export function editResourceCommand(type: ManagedType): CommandUnknownOpts {
  const titleFlags = type === "template" ? "-i, --title <title>" : "-t, --title <title>";
  const command = resourceOptions(
    new Command("edit")
      .description(
        `Edit the basic metadata of a ${type} (one change per attribute)` +
          (type === "template" ? "; the title is -i/--title, as in the reference client" : ""),
      )
      .addOption(
        new Option("-v, --visibility <visibility>", "New visibility").choices(VISIBILITIES),
      )
      .option(titleFlags, "New title")
      .option("-d, --description <description>", "New description"),
    type,
  );
  apyCommand(command, (manager, options) => editResource(manager, options, type));
  return command;
}

/** The fields `<type> edit` changes. */
interface EditResourceOptions {
  visibility?: string;
  title?: string;
  description?: string;
}

/** Changes the fields given that differ from the resource's. */
async function editResource(
  manager: CLIRepoManager,
  options: EditResourceOptions,
  type: ManagedType,
): Promise<void> {
  const given = (["visibility", "title", "description"] as const)
    .map((field) => [field, options[field]] as const)
    .filter((entry): entry is readonly [typeof entry[0], string] => entry[1] !== undefined);
  if (given.length === 0) {
    const title = type === "template" ? "-i" : "-t";
    manager.output.warning(`Nothing to change: give -v, ${title} or -d`);
    return;
  }
  const resource = await openResource(manager, type, options);
  const meta = await resource.refresh();
  // Named as it was before the edit: after a title change it would carry the new title.
  const label = String(resource);
  for (const [field, value] of given) {
    if ((meta[field] ?? "") === value) {
      manager.output.info(`The ${field} of the ${label} is already '${terminalLine(value)}'`);
      continue;
    }
    await resource.edit({ [field]: value });
    manager.output.info(`Changed the ${field} of the ${label} to '${terminalLine(value)}'`);
  }
}

/** `<type> delete`: moves the resource to the trash (needs `--i-am-sure`). */
export function deleteResourceCommand(type: ManagedType): CommandUnknownOpts {
  const command = resourceOptions(
    new Command("delete")
      .description(
        `Delete a ${type} (it goes to the trash: misc restore-resource brings it back)`,
      )
      .option("--i-am-sure", "Confirm the deletion"),
    type,
  );
  dryRunOption(command);
  apyCommand(command, async (manager, options) => {
    const resource = await openResource(manager, type, options);
    await resource.meta();
    const label = String(resource);
    if (dryRun(manager, `delete the ${label} (it would go to the trash)`)) return;
    requireSure(options.iAmSure, `delete the ${type}`);
    await resource.delete();
    manager.output.info(`Deleted the ${label}`);
  });
  return command;
}
