/**
 * The repository's wire protocol: every path segment, header, JSON key and server constant the
 * client and the local test server share. Nothing else in `lib/` spells a wire name.
 *
 * @example Usage
 * ```ts
 * import { API_PREFIX, UPLOAD_CHUNK_SIZE } from "./protocol.ts";
 * console.log(API_PREFIX, UPLOAD_CHUNK_SIZE); // "/api/v1" 10000000
 * ```
 *
 * @module
 */

import type { ExtraType, TemplateType } from "./_protocol_json.ts";

/** Path prefix of the versioned API. Every request of the client goes below it. */
export const API_PREFIX = "/api/v1";
/** Path prefix of the unversioned API (the server serves every route under both). */
export const API_PREFIX_UNVERSIONED = "/api";

/** Header names used on the wire. */
export const HEADER = {
  authorization: "Authorization",
  userAgent: "User-Agent",
  retryAfter: "Retry-After",
  location: "Location",
  contentType: "Content-Type",
  contentLength: "Content-Length",
  contentDisposition: "Content-Disposition",
  range: "Range",
  contentRange: "Content-Range",
  chunkIndex: "Kadi-Chunk-Index",
  chunkSize: "Kadi-Chunk-Size",
  md5Checksum: "Kadi-MD5-Checksum",
} as const;

/** Uploads of at most this many bytes are direct; strictly larger ones are chunked. */
export const UPLOAD_CHUNKED_BOUNDARY = 50_000_000;
/** Size of every chunk of a chunked upload but the last. */
export const UPLOAD_CHUNK_SIZE = 10_000_000;
/** Largest request body the server accepts (413 above it). */
export const MAX_CONTENT_LENGTH = 51_000_000;
/** Largest integer an extra metadata value may hold: 2^53 − 1. */
export const EXTRAS_MAX_INTEGER = 9_007_199_254_740_991;
/** Smallest integer an extra metadata value may hold: −(2^53 − 1). */
export const EXTRAS_MIN_INTEGER: number = -9_007_199_254_740_991;
/** Largest `per_page` the server accepts; larger values are clamped. */
export const MAX_PER_PAGE = 100;
/** Longest resource identifier. */
export const IDENTIFIER_MAX_LENGTH = 50;

/**
 * Query parameters whose library name differs from the wire name (library name → wire name);
 * every other parameter is sent under its own name.
 */
export const QUERY_WIRE_NAMES: { readonly [libraryName: string]: string } = {
  perPage: "per_page",
  explicitPermissions: "explicit_permissions",
  tags: "tag",
  tagOperator: "tag_operator",
  collections: "collection",
  childCollections: "child_collections",
  mimetypes: "mimetype",
  memberOnly: "member_only",
};

/** A resource type the repository knows. */
export type ResourceType = "record" | "collection" | "template" | "group" | "user";

/** Resource types with their URL base segment. */
export const RESOURCE_BASE = {
  record: "records",
  collection: "collections",
  template: "templates",
  group: "groups",
  user: "users",
} as const satisfies Record<ResourceType, string>;

/** Roles per resource type, as the server's roles endpoint names them. */
export const RESOURCE_ROLES = {
  record: ["member", "collaborator", "editor", "admin"],
  collection: ["member", "collaborator", "editor", "admin"],
  template: ["member", "editor", "admin"],
  group: ["member", "editor", "admin"],
} as const;

/** Export types per resource and the file extension each one is saved with. */
export const EXPORT_TYPES = {
  record: { json: "json", rdf: "ttl", pdf: "pdf", qr: "png", "ro-crate": "eln" },
  collection: { json: "json", rdf: "ttl", qr: "png", "ro-crate": "eln" },
  template: { json: "json", "json-schema": "json", shacl: "ttl" },
} as const;

/** Identity providers a username can belong to. */
export const IDENTITY_TYPES = ["local", "ldap", "oidc", "shib"] as const satisfies readonly (
  "local" | "ldap" | "oidc" | "shib"
)[];

/** Types an extra metadata entry may have. */
export const EXTRA_TYPES = [
  "str",
  "int",
  "float",
  "bool",
  "date",
  "dict",
  "list",
] as const satisfies readonly ExtraType[];

/**
 * ISO 8601 text a `date` extra accepts: `YYYY-MM-DD`, optionally a time after `T` or a space
 * (seconds and a fraction optional), then `Z` or an offset. Groups: 1–6 year, month, day, hour,
 * minute, second; 7 the digits of the fraction; 8 the zone. The ranges of the parts are not checked.
 */
export const EXTRAS_DATE_PATTERN: RegExp =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Template types: a whole record, or a list of extras. */
export const TEMPLATE_TYPES = ["record", "extras"] as const satisfies readonly TemplateType[];

// The JSON shapes the server sends and accepts live in a private module, re-exported here.
export * from "./_protocol_json.ts";
