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
export const EXTRAS_MIN_INTEGER = -9_007_199_254_740_991;
/** Largest `per_page` the server accepts; larger values are clamped. */
export const MAX_PER_PAGE = 100;
/** Longest resource identifier. */
export const IDENTIFIER_MAX_LENGTH = 50;

/** Resource types with their URL base segment. */
export const RESOURCE_BASE = {
  record: "records",
  collection: "collections",
  template: "templates",
  group: "groups",
  user: "users",
} as const;

/** A resource type the repository knows. */
export type ResourceType = keyof typeof RESOURCE_BASE;

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
export const IDENTITY_TYPES = ["local", "ldap", "oidc", "shib"] as const;

/** Types an extra metadata entry may have. */
export const EXTRA_TYPES = ["str", "int", "float", "bool", "date", "dict", "list"] as const;

/** Type of an extra metadata entry. */
export type ExtraType = typeof EXTRA_TYPES[number];

/** Validation block of an extra. */
export interface ExtraValidation {
  required?: boolean;
  options?: unknown[];
  range?: { min?: number | null; max?: number | null };
  iri?: boolean;
}

/** One extra metadata entry as the server stores it. */
export interface Extra {
  key?: string;
  type: ExtraType;
  value?: unknown;
  unit?: string | null;
  description?: string;
  term?: string | null;
  validation?: ExtraValidation;
}

/** Links a JSON resource carries: absolute URLs keyed by relation name. */
export type Links = { [relation: string]: string };

/** User identity as the server sends it. */
export interface IdentityJson {
  type: string;
  username: string;
  email?: string;
  email_confirmed?: boolean;
}

/** User as the server sends it. */
export interface UserJson {
  id: number;
  displayname: string;
  orcid?: string | null;
  state?: string;
  identity?: IdentityJson;
  created_at?: string;
  _links?: Links;
}

/** Fields shared by records, collections, templates and groups. */
export interface ResourceJson {
  id: number;
  identifier: string;
  title: string;
  description?: string;
  plain_description?: string;
  visibility?: "private" | "public";
  state?: "active" | "deleted" | "purged";
  created_at?: string;
  last_modified?: string;
  creator?: UserJson;
  _links: Links;
  _actions: Links;
}

/** A record as the server sends it. */
export interface RecordJson extends ResourceJson {
  type?: string | null;
  license?: string | null;
  tags?: string[];
  extras?: Extra[];
}

/** A file of a record as the server sends it. */
export interface FileJson {
  id: string;
  name: string;
  description?: string;
  mimetype?: string;
  magic_mimetype?: string;
  size: number;
  checksum?: string | null;
  storage_type?: string;
  state?: string;
  created_at?: string;
  last_modified?: string;
  creator?: UserJson;
  _links: Links;
  _actions: Links;
}

/** One stored chunk of a chunked upload. */
export interface ChunkJson {
  index: number;
  size: number;
  checksum: string;
}

/** State of the task that merges a finished chunked upload. */
export interface UploadTaskJson {
  state: string;
  file?: FileJson;
  error?: string;
}

/** An upload as the server sends it. */
export interface UploadJson {
  id: string;
  name: string;
  size: number;
  description?: string;
  mimetype?: string;
  checksum?: string | null;
  chunk_count: number;
  upload_type: "direct" | "chunked";
  state: "active" | "processing" | "inactive";
  file?: FileJson | null;
  chunks?: ChunkJson[];
  created_at?: string;
  last_modified?: string;
  _links: Links;
  _actions: Links;
  _meta: { chunk_size: number; task?: UploadTaskJson };
}

/** A link between two records. */
export interface RecordLinkJson {
  id: number;
  name: string;
  term?: string | null;
  created_at?: string;
  last_modified?: string;
  record_from?: RecordJson;
  record_to?: RecordJson;
  _links: Links;
  _actions: Links;
}

/** Pagination block of a paginated list. */
export interface PaginationJson {
  page: number;
  per_page: number;
  total_pages: number;
  total_items: number;
  _links: { self: string; prev?: string; next?: string };
}

/** A paginated list response. */
export interface PageJson<T> {
  items: T[];
  _pagination: PaginationJson;
  _actions?: Links;
}

/** An error body as the server sends it. */
export interface ErrorBodyJson {
  code: number;
  message: string;
  description: string;
  errors?: unknown;
  scopes?: string[];
  file?: FileJson;
  [extra: string]: unknown;
}

/** A revision as the server sends it. */
export interface RevisionJson {
  id: number;
  timestamp: string;
  user?: UserJson;
  object_id: number | string;
  data: { [field: string]: unknown };
  diff: { [field: string]: unknown };
  _links: Links;
}

/** Answer of the instance info endpoint. */
export interface InfoJson {
  version: string;
}

/** A user's role in a resource's role list. */
export interface UserRoleJson {
  user: UserJson;
  role: { name: string };
  _actions?: Links;
}

/** A group's role in a resource's role list (groups you cannot read are cut down). */
export interface GroupRoleJson {
  group: Pick<ResourceJson, "id" | "identifier" | "title"> & Partial<ResourceJson>;
  role: { name: string };
  _actions?: Links;
}
