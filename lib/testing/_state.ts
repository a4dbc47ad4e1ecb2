/**
 * In-memory store of the local repository server: users, tokens, resources, files, uploads, links,
 * roles and revisions. File bytes live in a temporary storage directory.
 *
 * @module
 */
import type { Extra } from "../http/protocol.ts";
import type { Fault } from "./_faults.ts";
import { FileIndex, type StoredFile, type Upload } from "./_file_index.ts";

export type { Chunk, StoredFile, Upload } from "./_file_index.ts";
import type { RequestLogEntry } from "./_log.ts";

/** Every scope a token can hold, in the server's order. */
export const ALL_SCOPES: readonly string[] = [
  "record.create",
  "record.read",
  "record.link",
  "record.update",
  "record.permissions",
  "record.delete",
  "collection.create",
  "collection.read",
  "collection.link",
  "collection.update",
  "collection.permissions",
  "collection.delete",
  "template.create",
  "template.read",
  "template.update",
  "template.permissions",
  "template.delete",
  "group.create",
  "group.read",
  "group.update",
  "group.members",
  "group.delete",
  "user.read",
  "misc.manage_trash",
];

/** Identity providers a user account can come from. */
export type IdentityType = "local" | "ldap" | "oidc" | "shib";

/** A user account. */
export interface User {
  id: number;
  username: string;
  displayname: string;
  email: string;
  createdAt: string;
  /** Identity provider of the account (default `local`). */
  identityType: IdentityType;
  /** Account state; inactive users are listed only with `inactive=true`. */
  state: "active" | "inactive";
}

/** An access token. */
export interface Token {
  userId: number;
  scopes: Set<string>;
  expired: boolean;
}

/** Resource kinds with roles. */
export type Kind = "record" | "collection" | "group" | "template";

/** Fields shared by records, collections and groups. */
export interface Resource {
  kind: Kind;
  id: number;
  identifier: string;
  title: string;
  description: string;
  visibility: "private" | "public";
  state: "active" | "deleted";
  createdAt: string;
  lastModified: string;
  deletedAt: string | null;
  creatorId: number;
  /** Explicit user roles (user id → role name). */
  userRoles: Map<number, string>;
  /** Group roles (group id → role name); for groups: unused. */
  groupRoles: Map<number, string>;
}

/** A record. */
export interface RecordData extends Resource {
  kind: "record";
  type: string | null;
  license: string | null;
  tags: string[];
  extras: Extra[];
}

/** A collection. */
export interface CollectionData extends Resource {
  kind: "collection";
  tags: string[];
  parentId: number | null;
  recordIds: Set<number>;
}

/** A group; `userRoles` are its members. */
export interface GroupData extends Resource {
  kind: "group";
}

/** A template: `data` is an extras array (`extras`) or a record blueprint object (`record`). */
export interface TemplateData extends Resource {
  kind: "template";
  type: "record" | "extras";
  data: unknown;
}

/** A link between two records. */
export interface RecordLink {
  id: number;
  fromId: number;
  toId: number;
  name: string;
  term: string | null;
  createdAt: string;
  lastModified: string;
  creatorId: number;
}

/** A revision of a record, a file, a collection, a template or a group. */
export interface Revision {
  id: number;
  objectId: number | string;
  /** The record of a record or file revision; the resource itself for the other kinds. */
  recordId: number;
  timestamp: string;
  userId: number;
  data: Record<string, unknown>;
}

/**
 * Current time in the server's ISO format (`...T10:20:30.123000+00:00`).
 */
export function now(): string {
  const ms = Date.now();
  if (ms !== lastNow.ms) {
    lastNow = { ms, text: new Date(ms).toISOString().replace("Z", "000+00:00") };
  }
  return lastNow.text;
}

/** The last timestamp made: several per request, most in the same millisecond. */
let lastNow = { ms: -1, text: "" };

/** The whole mutable state of one server. */
export class State {
  readonly users: Map<number, User> = new Map();
  readonly tokens: Map<string, Token> = new Map();
  readonly records: Map<number, RecordData> = new Map();
  readonly collections: Map<number, CollectionData> = new Map();
  readonly groups: Map<number, GroupData> = new Map();
  readonly templates: Map<number, TemplateData> = new Map();
  /** Every file by ID (changed with `addFile`, `updateFile` and `purgeFile`). */
  readonly files: ReadonlyMap<string, StoredFile>;
  /** Every upload by ID (changed with `addUpload`, `updateUpload` and `purgeUpload`). */
  readonly uploads: ReadonlyMap<string, Upload>;
  readonly links: Map<number, RecordLink> = new Map();
  readonly recordRevisions: Revision[] = [];
  readonly fileRevisions: Revision[] = [];
  /** Revisions of collections, templates and groups, per kind. */
  readonly resourceRevisions: Map<Kind, Revision[]> = new Map();
  readonly faults: Fault[] = [];
  readonly log: RequestLogEntry[] = [];
  /** Pending background tasks (awaited on close). */
  readonly tasks: Set<Promise<void>> = new Set();
  readonly storageDir: string;
  /** Small stored bodies kept in memory, by storage path (see `_storage.ts`). */
  readonly memory: Map<string, Uint8Array> = new Map();
  /** Bytes in {@linkcode State.memory}. */
  memoryBytes = 0;
  readonly quota: number;
  #ids: Map<string, number> = new Map();
  #files: Map<string, StoredFile> = new Map();
  #uploads: Map<string, Upload> = new Map();
  #index: FileIndex = new FileIndex();

  /**
   * Creates the state.
   *
   * @param quota Per-user upload quota in bytes.
   */
  constructor(storageDir: string, quota: number) {
    this.storageDir = storageDir;
    this.quota = quota;
    this.files = this.#files;
    this.uploads = this.#uploads;
  }

  /** Adds a new file. */
  addFile(file: StoredFile): void {
    this.#files.set(file.id, file);
    this.#index.addFile(file);
  }

  /** Changes fields of a file: its name, state and size only this way (they are indexed). */
  updateFile(file: StoredFile, changes: Partial<Omit<StoredFile, "id" | "recordId">>): void {
    this.#index.updateFile(file, () => Object.assign(file, changes));
  }

  /** Forgets a file (its stored bytes are the caller's). */
  purgeFile(file: StoredFile): void {
    this.#files.delete(file.id);
    this.#index.purgeFile(file);
  }

  /** Adds a new upload. */
  addUpload(upload: Upload): void {
    this.#uploads.set(upload.id, upload);
    this.#index.addUpload(upload);
  }

  /** Changes fields of an upload: its state only this way (it decides what the quota counts). */
  updateUpload(upload: Upload, changes: Partial<Omit<Upload, "id" | "recordId">>): void {
    this.#index.updateUpload(upload, () => Object.assign(upload, changes));
  }

  /** Forgets an upload (its stored chunks are the caller's). */
  purgeUpload(upload: Upload): void {
    this.#uploads.delete(upload.id);
    this.#index.purgeUpload(upload);
  }

  /** The files of a record, every state, oldest first. */
  filesOf(recordId: number): IterableIterator<StoredFile> {
    return this.#index.filesOf(recordId);
  }

  /** The active file of a record with a name, if any (an index: it runs for each upload). */
  activeFileNamed(recordId: number, name: string): StoredFile | undefined {
    return this.#index.activeFileNamed(recordId, name);
  }

  /** The uploads of a record, every state, oldest first. */
  uploadsOf(recordId: number): IterableIterator<Upload> {
    return this.#index.uploadsOf(recordId);
  }

  /** Bytes a user holds against the quota: active files they created, uploads not ended. */
  usedBytes(userId: number): number {
    return this.#index.usedBytes(userId);
  }

  /**
   * Next ID of a sequence.
   *
   * @returns The ID (from 1).
   */
  nextId(sequence: string): number {
    const id = (this.#ids.get(sequence) ?? 0) + 1;
    this.#ids.set(sequence, id);
    return id;
  }

  /**
   * Adds a user.
   *
   * @param identityType Identity provider (default `local`).
   */
  addUser(username: string, displayname: string, identityType: IdentityType = "local"): User {
    const id = this.nextId("user");
    const email = `${username}@example.org`;
    const user: User = {
      id,
      username,
      displayname,
      email,
      createdAt: now(),
      identityType,
      state: "active",
    };
    this.users.set(id, user);
    return user;
  }

  /**
   * Adds a token.
   */
  addToken(token: string, userId: number, scopes: Iterable<string>, expired = false): void {
    this.tokens.set(token, { userId, scopes: new Set(scopes), expired });
  }

  /**
   * Resource map of a kind.
   */
  resources(kind: Kind): Map<number, Resource> {
    if (kind === "record") return this.records;
    if (kind === "collection") return this.collections;
    if (kind === "group") return this.groups;
    return this.templates;
  }
}

/**
 * A random `pat_...` token.
 */
export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `pat_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}
