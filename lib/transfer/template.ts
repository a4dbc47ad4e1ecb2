/**
 * {@linkcode RepoTemplate}: a template (type `record` or `extras`) — metadata and data, user and
 * group roles, revisions, trash state, and streamed exports (`json`, `json-schema`, `shacl`).
 *
 * @example Usage
 * ```ts ignore
 * import { RepoTemplate } from "./template.ts";
 * const template = await RepoTemplate.load(transport, {
 *   identifier: "sample",
 *   create: true,
 *   type: "extras",
 *   data: [{ key: "temperature", type: "float", value: null, unit: "K" }],
 * });
 * await template.export("./out/", "json-schema");
 * ```
 *
 * @module
 */

import { InputError } from "../http/errors.ts";
import {
  type GroupRoleJson,
  type PageJson,
  TEMPLATE_TYPES,
  type TemplateJson,
  type UserRoleJson,
} from "../http/protocol.ts";
import type { Transport } from "../http/transport.ts";
import type { QueryParams } from "../http/url.ts";
import * as roles from "../resources/capabilities/roles.ts";
import { lookup, Resource, type ResourceSelector } from "../resources/resource.ts";
import {
  exportResource,
  exportStream,
  type ExportStreamOptions,
  type ResourceExportOptions,
} from "./export.ts";

/** Template export types. */
export type TemplateExportType = "json" | "json-schema" | "shacl";

/**
 * A template on the server.
 *
 * @example Usage
 * ```ts ignore
 * const template = await RepoTemplate.load(transport, { id: 1 });
 * await template.edit({ title: "New title" });
 * const schema = await template.exportStream("json-schema");
 * ```
 */
export class RepoTemplate extends Resource<TemplateJson> {
  /**
   * Wraps a template whose id is known; nothing is sent.
   *
   * @param transport The transport.
   * @param id Template id.
   * @param init Metadata already at hand, and whether it was just created.
   */
  constructor(
    transport: Transport,
    id: number,
    init: { meta?: TemplateJson; created?: boolean } = {},
  ) {
    super(transport, "template", id, init);
  }

  /**
   * Looks a template up by id or identifier; with `create: true` a missing one is created with
   * `type` (`record` by default) and `data` (`{}` for record templates, `[]` for extras).
   *
   * @example Usage
   * ```ts ignore
   * const template = await RepoTemplate.load(transport, { identifier: "t", create: true, type: "extras" });
   * ```
   *
   * @param transport The transport.
   * @param selector `{ id }` or `{ identifier, create?, type?, data?, ...metadata }`.
   * @returns The template.
   * @throws {InputError} When the type is neither `record` nor `extras`.
   */
  static async load(transport: Transport, selector: ResourceSelector): Promise<RepoTemplate> {
    const { meta, created } = await lookup<TemplateJson>(
      transport,
      "template",
      withDefaults(selector),
    );
    return new RepoTemplate(transport, meta.id, { meta, created });
  }

  // Roles

  /**
   * Gives a user a role (`member`, `editor`, `admin`).
   *
   * @param userId Id of the user.
   * @param roleName The role.
   */
  addUser(userId: number, roleName: string): Promise<void> {
    return roles.addRole(this, "users", { subjectId: userId, role: roleName });
  }

  /**
   * Changes the role of a user.
   *
   * @param userId Id of the user.
   * @param roleName The new role.
   */
  changeUserRole(userId: number, roleName: string): Promise<void> {
    return roles.changeRole(this, "users", { subjectId: userId, role: roleName });
  }

  /**
   * Removes the role of a user.
   *
   * @param userId Id of the user.
   */
  removeUser(userId: number): Promise<void> {
    return roles.removeRole(this, "users", userId);
  }

  /**
   * Gives a group a role (shares the template with the group).
   *
   * @param groupId Id of the group.
   * @param roleName The role.
   */
  addGroupRole(groupId: number, roleName: string): Promise<void> {
    return roles.addRole(this, "groups", { subjectId: groupId, role: roleName });
  }

  /**
   * Changes the role of a group.
   *
   * @param groupId Id of the group.
   * @param roleName The new role.
   */
  changeGroupRole(groupId: number, roleName: string): Promise<void> {
    return roles.changeRole(this, "groups", { subjectId: groupId, role: roleName });
  }

  /**
   * Removes the role of a group.
   *
   * @param groupId Id of the group.
   */
  removeGroupRole(groupId: number): Promise<void> {
    return roles.removeRole(this, "groups", groupId);
  }

  /**
   * One page of the users with a role in the template.
   *
   * @param query `page`, `per_page`, `filter`, `exclude`.
   * @returns The page.
   */
  getUsers(query: QueryParams = {}): Promise<PageJson<UserRoleJson>> {
    return roles.getUserRoles(this, query);
  }

  /**
   * One page of the groups with a role in the template.
   *
   * @param query `page`, `per_page`, `filter`.
   * @returns The page.
   */
  getGroups(query: QueryParams = {}): Promise<PageJson<GroupRoleJson>> {
    return roles.getGroupRoles(this, query);
  }

  // Exports

  /**
   * Exports the template to disk (`json` and `json-schema` → `.json`, `shacl` → `.ttl`).
   *
   * @param path Target file or directory.
   * @param exportType `json`, `json-schema` or `shacl`.
   * @param options Filter, folder, force, progress, signal.
   * @returns The path written.
   */
  export(
    path: string,
    exportType: TemplateExportType = "json",
    options: ResourceExportOptions = {},
  ): Promise<string> {
    return exportResource(this, path, { ...options, exportType });
  }

  /**
   * Exports the template as a byte stream.
   *
   * @param exportType `json`, `json-schema` or `shacl`.
   * @param options Filter, progress, signal.
   * @returns The exported data.
   */
  exportStream(
    exportType: TemplateExportType = "json",
    options: Omit<ExportStreamOptions, "exportType"> = {},
  ): Promise<ReadableStream<Uint8Array>> {
    return exportStream(this, { ...options, exportType });
  }
}

function withDefaults(selector: ResourceSelector): ResourceSelector {
  if (!("identifier" in selector) || selector.create !== true) return selector;
  const type = selector.type ?? "record";
  if (!(TEMPLATE_TYPES as readonly unknown[]).includes(type)) {
    throw new InputError(
      `Invalid template type '${String(type)}': use one of ${TEMPLATE_TYPES.join(", ")}`,
    );
  }
  return { ...selector, type, data: selector.data ?? (type === "record" ? {} : []) };
}
