/**
 * The JSON shapes of the wire protocol (bodies the server sends and accepts), re-exported by
 * `protocol.ts`; import them from there.
 *
 * @module
 */

/** Type of an extra metadata entry. */
export type ExtraType = "str" | "int" | "float" | "bool" | "date" | "dict" | "list";

/** A template type: a whole record, or a list of extras. */
export type TemplateType = "record" | "extras";

/** Validation block of an extra. */
export interface ExtraValidation {
  /** Whether a value is required. */
  required?: boolean;
  /** Allowed values. */
  options?: unknown[];
  /** Inclusive bounds of numeric values. */
  range?: { min?: number | null; max?: number | null };
  /** Whether the string must be an IRI. */
  iri?: boolean;
}

/** One extra metadata entry as the server stores it. */
export interface Extra {
  /** Key, unique within its array; entries inside a list have none. */
  key?: string;
  /** Value type. */
  type: ExtraType;
  /** Value; nested entries for `dict` and `list`. */
  value?: unknown;
  /** Unit, only for `int` and `float`. */
  unit?: string | null;
  /** Description (Markdown for resources). */
  description?: string;
  /** IRI of a term describing it. */
  term?: string | null;
  /** Validation rules. */
  validation?: ExtraValidation;
}

/** Links a JSON resource carries: absolute URLs keyed by relation name. */
export type Links = { [relation: string]: string };

/** User identity as the server sends it. */
export interface IdentityJson {
  /** Identity provider: `local`, `ldap`, `oidc` or `shib`. */
  type: string;
  /** User name of the identity. */
  username: string;
  /** E-mail address (hidden when private). */
  email?: string;
  /** Whether the e-mail address is confirmed. */
  email_confirmed?: boolean;
}

/** User as the server sends it. */
export interface UserJson {
  /** Id on the server. */
  id: number;
  /** Name shown for the user. */
  displayname: string;
  /** ORCID iD. */
  orcid?: string | null;
  /** Life-cycle state. */
  state?: string;
  /** The user's identity (provider type and user name). */
  identity?: IdentityJson;
  /** When it was created (ISO 8601). */
  created_at?: string;
  /** Absolute URLs of related endpoints. */
  _links?: Links;
}

/** Fields shared by records, collections, templates and groups. */
export interface ResourceJson {
  /** Id on the server. */
  id: number;
  /** Unique human-readable identifier (`^[a-z0-9-_]+$`, at most 50 characters). */
  identifier: string;
  /** Title (at most 150 characters). */
  title: string;
  /** Description (Markdown for resources). */
  description?: string;
  /** The description with Markdown removed. */
  plain_description?: string;
  /** `private` or `public`. */
  visibility?: "private" | "public";
  /** Life-cycle state. */
  state?: "active" | "deleted" | "purged";
  /** When it was created (ISO 8601). */
  created_at?: string;
  /** When it last changed (ISO 8601). */
  last_modified?: string;
  /** The user who created it (left out without the `user.read` scope). */
  creator?: UserJson;
  /** Absolute URLs of related endpoints. */
  _links: Links;
  /** Absolute URLs of the actions allowed on it. */
  _actions: Links;
}

/** A record as the server sends it. */
export interface RecordJson extends ResourceJson {
  /** Record type (free text, lower-case). */
  type?: string | null;
  /** License name, e.g. `CC-BY-4.0`. */
  license?: string | null;
  /** Tag names, lower-case and sorted. */
  tags?: string[];
  /** Extra metadata entries. */
  extras?: Extra[];
}

/** A file of a record as the server sends it. */
export interface FileJson {
  /** Id on the server. */
  id: string;
  /** Name. */
  name: string;
  /** Description (Markdown for resources). */
  description?: string;
  /** MIME type. */
  mimetype?: string;
  /** MIME type detected from the content. */
  magic_mimetype?: string;
  /** Size in bytes. */
  size: number;
  /** MD5 checksum (`<md5 of chunk md5s>-<count>` for chunked uploads). */
  checksum?: string | null;
  /** Storage backend, e.g. `local`. */
  storage_type?: string;
  /** Life-cycle state. */
  state?: string;
  /** When it was created (ISO 8601). */
  created_at?: string;
  /** When it last changed (ISO 8601). */
  last_modified?: string;
  /** The user who created it (left out without the `user.read` scope). */
  creator?: UserJson;
  /** Absolute URLs of related endpoints. */
  _links: Links;
  /** Absolute URLs of the actions allowed on it. */
  _actions: Links;
}

/** One stored chunk of a chunked upload. */
export interface ChunkJson {
  /** Index of the chunk, from 0. */
  index: number;
  /** Size in bytes. */
  size: number;
  /** MD5 checksum (`<md5 of chunk md5s>-<count>` for chunked uploads). */
  checksum: string;
}

/** State of the task that merges a finished chunked upload. */
export interface UploadTaskJson {
  /** Task state: `pending`, `success` or `failure`. */
  state: string;
  /** The merged file, on success. */
  file?: FileJson;
  /** Error text of a failed task. */
  error?: string;
}

/** An upload as the server sends it. */
export interface UploadJson {
  /** Id on the server. */
  id: string;
  /** Name. */
  name: string;
  /** Size in bytes. */
  size: number;
  /** Description (Markdown for resources). */
  description?: string;
  /** MIME type. */
  mimetype?: string;
  /** MD5 checksum (`<md5 of chunk md5s>-<count>` for chunked uploads). */
  checksum?: string | null;
  /** Number of chunks the upload consists of. */
  chunk_count: number;
  /** `direct` or `chunked`, decided by the server. */
  upload_type: "direct" | "chunked";
  /** Life-cycle state. */
  state: "active" | "processing" | "inactive";
  /** The file (being replaced, created, or clashing). */
  file?: FileJson | null;
  /** Chunks stored so far. */
  chunks?: ChunkJson[];
  /** When it was created (ISO 8601). */
  created_at?: string;
  /** When it last changed (ISO 8601). */
  last_modified?: string;
  /** Absolute URLs of related endpoints. */
  _links: Links;
  /** Absolute URLs of the actions allowed on it. */
  _actions: Links;
  /** Chunk size and, after finishing, the merge task's state. */
  _meta: { chunk_size: number; task?: UploadTaskJson };
}

/** A link between two records. */
export interface RecordLinkJson {
  /** Id on the server. */
  id: number;
  /** Name. */
  name: string;
  /** IRI of a term describing it. */
  term?: string | null;
  /** When it was created (ISO 8601). */
  created_at?: string;
  /** When it last changed (ISO 8601). */
  last_modified?: string;
  /** The record the link starts at. */
  record_from?: RecordJson;
  /** The record the link points to. */
  record_to?: RecordJson;
  /** Absolute URLs of related endpoints. */
  _links: Links;
  /** Absolute URLs of the actions allowed on it. */
  _actions: Links;
}

/** Pagination block of a paginated list. */
export interface PaginationJson {
  /** Number of this page, from 1. */
  page: number;
  /** Items per page (1 to 100). */
  per_page: number;
  /** Number of pages (1 when empty). */
  total_pages: number;
  /** Number of items on all pages. */
  total_items: number;
  /** Absolute URLs of related endpoints. */
  _links: { self: string; prev?: string; next?: string };
}

/** A paginated list response. */
export interface PageJson<T> {
  /** Items of this page. */
  items: T[];
  /** Page numbers and links. */
  _pagination: PaginationJson;
  /** Absolute URLs of the actions allowed on it. */
  _actions?: Links;
}

/** An error body as the server sends it. */
export interface ErrorBodyJson {
  /** HTTP status code. */
  code: number;
  /** HTTP reason phrase. */
  message: string;
  /** Description (Markdown for resources). */
  description: string;
  /** Validation messages per field. */
  errors?: unknown;
  /** Scopes the endpoint requires (insufficient scope). */
  scopes?: string[];
  /** The file (being replaced, created, or clashing). */
  file?: FileJson;
  /** Further keys the server adds case by case. */
  [extra: string]: unknown;
}

/** A revision as the server sends it. */
export interface RevisionJson {
  /** Id on the server. */
  id: number;
  /** When the revision was made. */
  timestamp: string;
  /** The user. */
  user?: UserJson;
  /** Id of the revisioned object. */
  object_id: number | string;
  /** Revisioned fields at that point. */
  data: { [field: string]: unknown };
  /** Changed fields with their previous values. */
  diff: { [field: string]: unknown };
  /** Absolute URLs of related endpoints. */
  _links: Links;
}

/** Answer of the instance info endpoint. */
export interface InfoJson {
  /** Installed server version. */
  version: string;
}

/** A user's role in a resource's role list. */
export interface UserRoleJson {
  /** The user. */
  user: UserJson;
  /** The role. */
  role: { name: string };
  /** Absolute URLs of the actions allowed on it. */
  _actions?: Links;
}

/** A group's role in a resource's role list (groups you cannot read are cut down). */
export interface GroupRoleJson {
  /** The group (cut down to id, identifier and title when you cannot read it). */
  group: Pick<ResourceJson, "id" | "identifier" | "title"> & Partial<ResourceJson>;
  /** The role. */
  role: { name: string };
  /** Absolute URLs of the actions allowed on it. */
  _actions?: Links;
}

/** A collection as the server sends it. */
export interface CollectionJson extends ResourceJson {
  /** Tag names, lower-case and sorted. */
  tags?: string[];
}

/** A template as the server sends it. */
export interface TemplateJson extends ResourceJson {
  /** `record` or `extras` (not editable). */
  type: TemplateType;
  /** Record template: an object of record fields; extras template: a list of extras. */
  data: { [field: string]: unknown } | Extra[];
}

/** A group as the server sends it. */
export type GroupJson = ResourceJson;

/** An entry of the trash (`GET /trash`). */
export interface TrashItemJson {
  /** Id of the deleted resource. */
  id: number;
  /** Identifier of the deleted resource. */
  identifier: string;
  /** `record`, `collection`, `template` or `group`. */
  type: string;
  /** When it was deleted (ISO 8601). */
  deleted_at?: string;
  /** Absolute URLs of `restore` and `purge`. */
  _actions?: Links;
}

/** A license (`GET /licenses`). */
export interface LicenseJson {
  /** License name, e.g. `CC-BY-4.0`. */
  name: string;
  /** Human-readable title. */
  title: string;
  /** Where the license text is. */
  url?: string | null;
}

/** A tag (`GET /tags`). */
export interface TagJson {
  /** Tag name. */
  name: string;
}

/** A role and its permissions as `GET /roles` lists them. */
export interface RoleInfoJson {
  /** Role name. */
  name: string;
  /** What the role allows. */
  permissions: { action: string; description?: string }[];
}

/** `GET /roles`: the roles of each resource type. */
export type RolesJson = { [type: string]: RoleInfoJson[] };

/** Resource types with a trash: deleted ones can be restored and purged. */
export type TrashableType = "record" | "collection" | "template" | "group";

/** Fields of a resource a PATCH may change. */
export type ResourceChanges<J extends ResourceJson> = Partial<
  Omit<J, "id" | "_links" | "_actions">
>;
