/**
 * Reading a collection folder: `DIR/.collection.json` (optional) holds the collection's
 * metadata; each first-level folder is one record, whose `.record.json` (optional) holds its
 * metadata and whose other files are its files; a first-level folder with a `.collection.json`
 * and no `.record.json` is a child collection with the same layout inside. Names starting with
 * `.` (`.git`, the sync's cache) are left out at the first level.
 *
 * Without a `.record.json`, a record's identifier comes from its folder's name by
 * {@linkcode identifierFromFolder} and its title is the folder's name.
 *
 * @example Usage
 * ```ts
 * import { readLayout } from "./layout.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/Sample 1`);
 * await Deno.writeTextFile(`${dir}/Sample 1/data.csv`, "1,2\n");
 * const layout = await readLayout(dir);
 * console.log(layout.root.records[0]?.identifier); // "sample-1"
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */

import { join } from "node:path";
import { InputError } from "../errors.ts";
import { generateIdentifier } from "../utils/identifier.ts";
import { statLocalPath } from "../utils/local_path.ts";
import {
  COLLECTION_FILE,
  type CollectionMetadata,
  MAX_METADATA_FILE_BYTES,
  parseCollectionMetadata,
  parseRecordMetadata,
  RECORD_FILE,
  type RecordMetadata,
} from "./metadata.ts";
import { pathExists } from "../transfer/_paths.ts";

/** A record's folder. */
export interface RecordFolder {
  /** Its path in the collection folder, with `/` (`sample-1`, `campaign/sample-1`). */
  folder: string;
  /** Its path on disk. */
  path: string;
  /** The record's identifier (from `.record.json`, else from the folder's name). */
  identifier: string;
  /**
   * The metadata it sets (only the fields its `.record.json` has); without `.record.json`, the
   * title: the folder's name.
   */
  metadata: RecordMetadata;
  /** The title it is created with: its metadata's, else the folder's name. */
  title: string;
}

/** A collection's folder (the root, or a child collection). */
export interface CollectionFolder {
  /** Its path in the collection folder, with `/` (`""` for the root). */
  folder: string;
  /** Its path on disk. */
  path: string;
  /**
   * The collection's identifier (from `.collection.json`, else for a child from the folder's
   * name); the root's may be unset (the caller names it).
   */
  identifier: string | undefined;
  /**
   * The metadata of its `.collection.json` (only the fields it has); a child without the file:
   * the title, its folder's name.
   */
  metadata: CollectionMetadata;
  /** The title it is created with (none: the root's identifier). */
  title: string | undefined;
  /** Its records, by folder name. */
  records: RecordFolder[];
  /** Its child collections, by folder name. */
  children: CollectionFolder[];
}

/** A folder that cannot be synced, and why. */
export interface LayoutProblem {
  /** Its path in the collection folder. */
  folder: string;
  /** Why, in the user's terms. */
  reason: string;
}

/** What {@linkcode readLayout} found. */
export interface CollectionLayout {
  /** The collection folder. */
  root: CollectionFolder;
  /** Folders left out because they cannot be synced (their records are not touched). */
  problems: LayoutProblem[];
  /** Entries left out on purpose (loose files, symbolic links). */
  warnings: string[];
}

/** Options of {@linkcode readLayout}. */
export interface ReadLayoutOptions {
  /** Follow symbolic links to first-level folders. */
  followSymlinks?: boolean;
}

/** Longest title the server accepts. */
const MAX_TITLE = 150;

/**
 * The identifier of a record (or child collection) whose folder has no metadata file: the
 * folder's name lower-cased, spaces as `-`, other characters than `a-z`, `0-9`, `-` and `_`
 * dropped, cut at 50 characters (`Sample 1` → `sample-1`, `Ölprobe_3` → `lprobe_3`).
 *
 * @example Usage
 * ```ts
 * import { identifierFromFolder } from "./layout.ts";
 * console.log(identifierFromFolder("Run 2026-03 (B)")); // "run-2026-03-b"
 * ```
 *
 * @returns The identifier (empty when no character is left).
 */
export function identifierFromFolder(name: string): string {
  return generateIdentifier(name.trim());
}

/** Whether a first-level entry is left out: hidden names (`.git`, metadata and cache files). */
function hidden(name: string): boolean {
  return name.startsWith(".");
}

/**
 * A metadata file's parsed JSON, or `undefined` when there is none.
 *
 * @throws {InputError} When it cannot be read, is too large or is not JSON.
 */
async function readJsonFile(path: string, source: string): Promise<unknown> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw new InputError(`${source}: cannot be read (${(error as Error).message})`);
  }
  if (!info.isFile) throw new InputError(`${source}: is not a file`);
  if (info.size > MAX_METADATA_FILE_BYTES) {
    throw new InputError(
      `${source}: ${info.size} bytes is more than a metadata file holds (at most ${MAX_METADATA_FILE_BYTES})`,
    );
  }
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    throw new InputError(`${source}: cannot be read (${(error as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InputError(`${source}: is not valid JSON (${(error as Error).message})`);
  }
}

function joinFolder(parent: string, name: string): string {
  return parent === "" ? name : `${parent}/${name}`;
}

/**
 * Reads one record folder: its `.record.json` (if any) and its identifier. This is what a
 * watcher calls for the one folder that changed.
 *
 * @param folder Its path in the collection folder (for messages and sharding).
 * @throws {InputError} When the metadata file is wrong or no identifier can be made.
 */
export async function readRecordFolder(path: string, folder: string): Promise<RecordFolder> {
  const name = folder.slice(folder.lastIndexOf("/") + 1);
  const source = `${joinFolder(folder, RECORD_FILE)}`;
  const json = await readJsonFile(join(path, RECORD_FILE), source);
  const metadata = json === undefined ? {} : parseRecordMetadata(json, source);
  const identifier = metadata.identifier ?? identifierFromFolder(name);
  if (identifier === "") {
    throw new InputError(
      `'${folder}': the folder's name gives no identifier (no a-z, 0-9, - or _): rename the folder or give an identifier in its ${RECORD_FILE}`,
    );
  }
  const title = metadata.title ?? name.slice(0, MAX_TITLE);
  // Without a metadata file the folder's name is the title; a file without one leaves it alone.
  return { folder, path, identifier, metadata: json === undefined ? { title } : metadata, title };
}

async function readCollectionFolder(
  path: string,
  folder: string,
  report: Omit<CollectionLayout, "root">,
  options: ReadLayoutOptions,
): Promise<CollectionFolder> {
  const name = folder.slice(folder.lastIndexOf("/") + 1);
  const source = joinFolder(folder, COLLECTION_FILE);
  const json = await readJsonFile(join(path, COLLECTION_FILE), source);
  const metadata = json === undefined ? {} : parseCollectionMetadata(json, source);
  const identifier = metadata.identifier ??
    (folder === "" ? undefined : identifierFromFolder(name));
  if (identifier === "") {
    throw new InputError(
      `'${folder}': the folder's name gives no identifier: rename it or give an identifier in its ${COLLECTION_FILE}`,
    );
  }
  const title = metadata.title ?? (folder === "" ? undefined : name.slice(0, MAX_TITLE));
  const collection: CollectionFolder = {
    folder,
    path,
    identifier,
    metadata: json === undefined && title !== undefined ? { title } : metadata,
    title,
    records: [],
    children: [],
  };
  const entries: Deno.DirEntry[] = [];
  for await (const entry of Deno.readDir(path)) entries.push(entry);
  entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  for (const entry of entries) {
    if (hidden(entry.name)) continue;
    const child = joinFolder(folder, entry.name);
    const childPath = join(path, entry.name);
    let isDirectory = entry.isDirectory;
    if (entry.isSymlink) {
      if (!options.followSymlinks) {
        report.warnings.push(
          `Left out '${child}': a symbolic link (add --follow-symlinks to follow it)`,
        );
        continue;
      }
      isDirectory = (await Deno.stat(childPath).catch(() => undefined))?.isDirectory === true;
    }
    if (!isDirectory) {
      report.warnings.push(
        `Left out '${child}': a file beside the record folders belongs to no record (move it into one)`,
      );
      continue;
    }
    try {
      const isRecord = await pathExists(join(childPath, RECORD_FILE)) ||
        !await pathExists(join(childPath, COLLECTION_FILE));
      if (isRecord) collection.records.push(await readRecordFolder(childPath, child));
      else collection.children.push(await readCollectionFolder(childPath, child, report, options));
    } catch (error) {
      if (!(error instanceof InputError || error instanceof Deno.errors.PermissionDenied)) {
        throw error;
      }
      report.problems.push({ folder: child, reason: error.message });
    }
  }
  return collection;
}

/** Every record folder of the tree, the root's first, depth first. */
export function allRecords(collection: CollectionFolder): RecordFolder[] {
  return [...collection.records, ...collection.children.flatMap(allRecords)];
}

/** Every collection folder of the tree, the root first, depth first. */
export function allCollections(collection: CollectionFolder): CollectionFolder[] {
  return [collection, ...collection.children.flatMap(allCollections)];
}

/** Drops the folders whose identifier another folder also has, each named as a problem. */
function dropDuplicates(layout: CollectionLayout): void {
  const records = new Map<string, string[]>();
  for (const record of allRecords(layout.root)) {
    records.set(record.identifier, [...records.get(record.identifier) ?? [], record.folder]);
  }
  const collections = new Map<string, string[]>();
  for (const collection of allCollections(layout.root)) {
    if (collection.identifier === undefined) continue;
    const list = collections.get(collection.identifier) ?? [];
    collections.set(collection.identifier, [...list, collection.folder]);
  }
  const clashing = new Set<string>();
  for (const [kind, map] of [["record", records], ["collection", collections]] as const) {
    for (const [identifier, folders] of map) {
      if (folders.length < 2) continue;
      for (const folder of folders) {
        clashing.add(folder);
        layout.problems.push({
          folder,
          reason: `its ${kind} identifier '${identifier}' is also that of ${
            folders.filter((other) => other !== folder).map((other) => `'${other}'`).join(", ")
          }: give each folder its own identifier (in its ${
            kind === "record" ? RECORD_FILE : COLLECTION_FILE
          })`,
        });
      }
    }
  }
  const prune = (collection: CollectionFolder) => {
    collection.records = collection.records.filter((record) => !clashing.has(record.folder));
    collection.children = collection.children.filter((child) => !clashing.has(child.folder));
    collection.children.forEach(prune);
  };
  prune(layout.root);
}

/**
 * Reads a collection folder whole: its metadata, its record folders and its child collections.
 * A folder whose metadata file is wrong, or whose identifier another folder has too, is named as
 * a problem and left out; everything else is read.
 *
 * @throws {InputError} When `dir` is not a folder, or its `.collection.json` is wrong.
 */
export async function readLayout(
  dir: string,
  options: ReadLayoutOptions = {},
): Promise<CollectionLayout> {
  if (!(await statLocalPath(dir, { what: "folder" })).isDirectory) {
    throw new InputError(`'${dir}' is not a folder: give the collection's folder`);
  }
  const report = { problems: [], warnings: [] };
  const layout = { root: await readCollectionFolder(dir, "", report, options), ...report };
  dropDuplicates(layout);
  return layout;
}
