/**
 * Every endpoint path of the API, relative to the API base (`{host}{basePath}/api/v1`). This is
 * the one module that spells a path: resources, transfers, the manager and the CLI ask it and
 * never concatenate one themselves (a test in `tests/http/paths_test.ts` enforces it). Ids are
 * checked (positive integers) and text segments encoded here, so a path always addresses the
 * endpoint it names.
 *
 * Not part of the public API (`mod.ts` does not export it).
 *
 * @example Usage
 * ```ts
 * import { resourcePath, rolesPath } from "./paths.ts";
 * console.log(resourcePath("record", 5)); // "/records/5"
 * console.log(rolesPath({ type: "collection", id: 2 }, "users", 7)); // "/collections/2/roles/users/7"
 * ```
 *
 * @module
 */

import { InputError } from "../errors.ts";
import { RESOURCE_BASE, type ResourceType, type TrashableType } from "./protocol.ts";
import { pathSegment } from "./url.ts";

/** A resource as paths need it: its type and id. */
export interface ResourceRef {
  /** Resource type. */
  readonly type: ResourceType;
  /** Resource id. */
  readonly id: number;
}

export type { TrashableType };

/** Resource types a user or group holds roles in (`roles/users`, `roles/groups`). */
export type RoleType = "record" | "collection" | "template";

/** Resource types listed below a user (`/users/<id>/<type>s`). */
export type UserResourceType = "record" | "collection" | "template" | "group";

/** Resource types shared with a group (`/groups/<id>/<type>s`). */
export type GroupResourceType = "record" | "collection" | "template";

/**
 * Checks that an id is a positive integer (ids in paths and in request bodies alike).
 *
 * @param id The id.
 * @param what What the id belongs to, for the message (`user id`).
 * @returns The id.
 * @throws {InputError} When the id is not a positive integer.
 */
export function checkId(id: number, what: string): number {
  if (!Number.isSafeInteger(id) || id < 1) {
    throw new InputError(`Invalid ${what} ${String(id)}: use a positive integer`);
  }
  return id;
}

function idSegment(id: number, what: string): string {
  return String(checkId(id, what));
}

function base(type: ResourceType): string {
  return `/${RESOURCE_BASE[type]}`;
}

function of(ref: ResourceRef): string {
  return `${base(ref.type)}/${idSegment(ref.id, `${ref.type} id`)}`;
}

function optional(path: string, id: number | undefined, what: string): string {
  return id === undefined ? path : `${path}/${idSegment(id, what)}`;
}

/**
 * The list (and create) endpoint of a type: `/records`, `/users`.
 *
 * @param type Resource type.
 * @returns The path.
 */
export function listPath(type: ResourceType): string {
  return base(type);
}

/**
 * One resource: `/records/5`.
 *
 * @param type Resource type.
 * @param id Resource id.
 * @returns The path.
 */
export function resourcePath(type: ResourceType, id: number): string {
  return of({ type, id });
}

/**
 * A resource by identifier: `/records/identifier/<identifier>`.
 *
 * @param type Resource type (not `user`).
 * @param identifier The identifier.
 * @returns The path.
 */
export function identifierPath(type: TrashableType, identifier: string): string {
  return `${base(type)}/identifier/${pathSegment(identifier, "identifier")}`;
}

/**
 * A record's files, or one file: `/records/1/files[/<uuid>]`.
 *
 * @param recordId Record id.
 * @param fileId File id (UUID).
 * @returns The path.
 */
export function filesPath(recordId: number, fileId?: string): string {
  const files = `${of({ type: "record", id: recordId })}/files`;
  return fileId === undefined ? files : `${files}/${pathSegment(fileId, "file id")}`;
}

/**
 * A file by exact name (`/` kept as separator): `/records/1/files/name/<name>`.
 *
 * @param recordId Record id.
 * @param name File name without empty, `.` or `..` segments.
 * @returns The path.
 */
export function fileByNamePath(recordId: number, name: string): string {
  const segments = name.split("/").map((segment) => pathSegment(segment, "file name part"));
  return `${filesPath(recordId)}/name/${segments.join("/")}`;
}

/**
 * A file's bytes: `/records/1/files/<uuid>/download`.
 *
 * @param recordId Record id.
 * @param fileId File id.
 * @returns The path.
 */
export function fileDownloadPath(recordId: number, fileId: string): string {
  return `${filesPath(recordId, fileId)}/download`;
}

/**
 * All files of a record as a ZIP: `/records/1/files/download`.
 *
 * @param recordId Record id.
 * @returns The path.
 */
export function filesDownloadPath(recordId: number): string {
  return `${filesPath(recordId)}/download`;
}

/**
 * A record's file revisions, or one: `/records/1/files/revisions[/<id>]`.
 *
 * @param recordId Record id.
 * @param revisionId Revision id.
 * @returns The path.
 */
export function fileRevisionsPath(recordId: number, revisionId?: number): string {
  return optional(`${filesPath(recordId)}/revisions`, revisionId, "revision id");
}

/**
 * A record's uploads, or one upload: `/records/1/uploads[/<uuid>]`.
 *
 * @param recordId Record id.
 * @param uploadId Upload id (UUID).
 * @returns The path.
 */
export function uploadsPath(recordId: number, uploadId?: string): string {
  const uploads = `${of({ type: "record", id: recordId })}/uploads`;
  return uploadId === undefined ? uploads : `${uploads}/${pathSegment(uploadId, "upload id")}`;
}

/**
 * Links between records, or one link: `/records/1/records[/<link id>]`.
 *
 * @param recordId Record id.
 * @param linkId Link id.
 * @returns The path.
 */
export function recordLinksPath(recordId: number, linkId?: number): string {
  return optional(`${of({ type: "record", id: recordId })}/records`, linkId, "link id");
}

/**
 * The collections a record is in, or one: `/records/1/collections[/<cid>]`.
 *
 * @param recordId Record id.
 * @param collectionId Collection id.
 * @returns The path.
 */
export function recordCollectionsPath(recordId: number, collectionId?: number): string {
  const path = `${of({ type: "record", id: recordId })}/collections`;
  return optional(path, collectionId, "collection id");
}

/**
 * A collection's records, or one: `/collections/1/records[/<rid>]`.
 *
 * @param collectionId Collection id.
 * @param recordId Record id.
 * @returns The path.
 */
export function collectionRecordsPath(collectionId: number, recordId?: number): string {
  const path = `${of({ type: "collection", id: collectionId })}/records`;
  return optional(path, recordId, "record id");
}

/**
 * A collection's child collections, or one: `/collections/1/collections[/<child id>]`.
 *
 * @param collectionId Collection id.
 * @param childId Child collection id.
 * @returns The path.
 */
export function childCollectionsPath(collectionId: number, childId?: number): string {
  const path = `${of({ type: "collection", id: collectionId })}/collections`;
  return optional(path, childId, "collection id");
}

/**
 * User or group roles of a resource, or one: `/records/1/roles/users[/<uid>]`.
 *
 * @param ref The resource.
 * @param subject `users` or `groups`.
 * @param subjectId Id of the user or group.
 * @returns The path.
 */
export function rolesPath(
  ref: ResourceRef,
  subject: "users" | "groups",
  subjectId?: number,
): string {
  const what = subject === "users" ? "user id" : "group id";
  return optional(`${of(ref)}/roles/${subject}`, subjectId, what);
}

/**
 * A group's members, or one: `/groups/1/members[/<uid>]`.
 *
 * @param groupId Group id.
 * @param userId User id.
 * @returns The path.
 */
export function membersPath(groupId: number, userId?: number): string {
  return optional(`${of({ type: "group", id: groupId })}/members`, userId, "user id");
}

/**
 * Resources shared with a group: `/groups/1/records`.
 *
 * @param groupId Group id.
 * @param type Resource type listed.
 * @returns The path.
 */
export function groupResourcesPath(groupId: number, type: GroupResourceType): string {
  return `${of({ type: "group", id: groupId })}${base(type)}`;
}

/**
 * A user by id, the token's owner (`/users/me`), or a user by identity type and username
 * (`/users/local/jdoe`).
 *
 * @param user `{ id }`, `{ me: true }` or `{ identityType, username }`.
 * @returns The path.
 */
export function userPath(
  user: { id: number } | { me: true } | { identityType: string; username: string },
): string {
  if ("id" in user) return of({ type: "user", id: user.id });
  if ("me" in user) return `${base("user")}/me`;
  const type = pathSegment(user.identityType, "identity type");
  return `${base("user")}/${type}/${pathSegment(user.username, "username")}`;
}

/**
 * A user's identities: `/users/1/identities`.
 *
 * @param userId User id.
 * @returns The path.
 */
export function identitiesPath(userId: number): string {
  return `${of({ type: "user", id: userId })}/identities`;
}

/**
 * Resources a user created: `/users/1/records`, `/users/1/groups`.
 *
 * @param userId User id.
 * @param type Resource type listed.
 * @returns The path.
 */
export function userResourcesPath(userId: number, type: UserResourceType): string {
  return `${of({ type: "user", id: userId })}${base(type)}`;
}

/**
 * Revisions of a resource, or one: `/collections/1/revisions[/<id>]`.
 *
 * @param ref The resource.
 * @param revisionId Revision id.
 * @returns The path.
 */
export function revisionsPath(ref: ResourceRef, revisionId?: number): string {
  return optional(`${of(ref)}/revisions`, revisionId, "revision id");
}

/**
 * An export of a resource: `/records/1/export/json`.
 *
 * @param ref The resource.
 * @param exportType Export type (`json`, `rdf`, `json-schema`, ...).
 * @returns The path.
 */
export function exportPath(ref: ResourceRef, exportType: string): string {
  return `${of(ref)}/export/${pathSegment(exportType, "export type")}`;
}

/**
 * The extra-metadata export of a record: `/records/1/extras/export/json`.
 *
 * @param recordId Record id.
 * @returns The path.
 */
export function extrasExportPath(recordId: number): string {
  return `${of({ type: "record", id: recordId })}/extras/export/json`;
}

/**
 * Restores a deleted resource: `/templates/1/restore`.
 *
 * @param type Resource type.
 * @param id Resource id.
 * @returns The path.
 */
export function restorePath(type: TrashableType, id: number): string {
  return `${of({ type, id })}/restore`;
}

/**
 * Purges a deleted resource: `/templates/1/purge`.
 *
 * @param type Resource type.
 * @param id Resource id.
 * @returns The path.
 */
export function purgePath(type: TrashableType, id: number): string {
  return `${of({ type, id })}/purge`;
}

/** The trash: `/trash`. */
export const TRASH_PATH = "/trash";
/** Licenses: `/licenses`. */
export const LICENSES_PATH = "/licenses";
/** Roles per resource type: `/roles`. */
export const ROLES_PATH = "/roles";
/** Tags: `/tags`. */
export const TAGS_PATH = "/tags";
/** Server information: `/info`. */
export const INFO_PATH = "/info";
