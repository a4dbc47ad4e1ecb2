// The planner: a pure function from the parsed metadata and the archive's file list to the
// records, files, links and collection an import creates.

import { InputError } from "../../errors.ts";
import type { Extra } from "../../http/protocol.ts";
import { propertyValueExtras } from "./_extras.ts";
import { asList, type Crate, type CrateNode, hasType, isNode, text } from "./_crate.ts";
import type { ElnPlan, ElnPlannedFile, ElnPlannedLink, ElnPlannedRecord } from "./plan.ts";

/** Input of {@linkcode planEln}. */
export interface ElnPlanInput {
  /** The parsed metadata. */
  crate: Crate;
  /** The archive's root folder. */
  root: string;
  /** Sizes of the archive's files by path below the root folder. */
  files: ReadonlyMap<string, { size: number }>;
  /** Parsed repository JSON exports by path (see {@linkcode repositoryExportPaths}). */
  exports?: ReadonlyMap<string, unknown>;
}

const TITLE_MAX = 150;
const DESCRIPTION_MAX = 50_000;
const MIMETYPE = /^[a-z]+\/[a-z0-9\-+.]+$/;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const MAX_NESTING = 32;
const PUBLISHER = "Kadi4Mat";

/**
 * Paths of the repository's own JSON exports in the crate (`<identifier>.json` in a record's
 * folder), which the importer reads before planning. Empty unless the publisher is the repository.
 */
export function repositoryExportPaths(crate: Crate): string[] {
  if (crate.publisherName !== PUBLISHER) return [];
  return topDatasets(crate).flatMap((dataset) => {
    const identifier = datasetIdentifier(dataset);
    return asList(dataset.hasPart).map((ref) => crate.resolve(ref)).filter((file) =>
      file !== undefined && hasType(file, "File") &&
      fileName(file) === `${identifier}.json`
    ).map((file) => archivePath(String(file!["@id"]))).filter((path) => path !== undefined);
  });
}

/** Plans the import of a crate; sends nothing. */
export function planEln(input: ElnPlanInput): ElnPlan {
  const { crate, root } = input;
  const datasets = topDatasets(crate);
  const planning: Planning = {
    input,
    warnings: [...crate.warnings],
    repositoryExport: crate.publisherName === PUBLISHER,
    imported: new Set(datasets),
    links: [],
    oldIds: new Map(),
    exportLinks: [],
    claimed: new Set(),
  };
  const records = datasets.map((dataset) => planDataset(planning, dataset));
  const loose = looseRecord(planning);
  if (loose !== undefined) records.unshift(loose);
  const links = planLinks(planning);
  const genre = text(crate.root.genre);
  const collection = genre === "collection" || (genre !== "record" && records.length > 1)
    ? { title: title(text(crate.root.name) ?? root), description: description(crate, crate.root) }
    : undefined;
  const fileCount = records.reduce((sum, r) => sum + r.files.length, 0);
  const bytes = records.reduce((sum, r) => sum + r.files.reduce((s, f) => s + f.size, 0), 0);
  return {
    root,
    repositoryExport: planning.repositoryExport,
    collection,
    records,
    links,
    warnings: [...new Set(planning.warnings)],
    totals: { records: records.length, files: fileCount, bytes, links: links.length },
  };
}

/** The state of one planning: what it found so far across the crate's datasets. */
interface Planning {
  readonly input: ElnPlanInput;
  readonly warnings: string[];
  /** The crate is this repository's own export (its record files are its metadata). */
  readonly repositoryExport: boolean;
  /** The datasets that become records. */
  readonly imported: Set<CrateNode>;
  readonly links: ElnPlannedLink[];
  /** Crate key of each record of a repository export, by its id there. */
  readonly oldIds: Map<number, string>;
  /** Links of a repository export, to records by their id there. */
  readonly exportLinks: { from: string; to: number; name: string; term: string | null }[];
  /** Archive paths of files that a dataset's record holds. */
  readonly claimed: Set<string>;
}

/** The record of a dataset: its metadata, its files, and its links (`hasPart`, `mentions`). */
function planDataset(planning: Planning, dataset: CrateNode): ElnPlannedRecord {
  const { input: { crate, files, exports }, warnings, repositoryExport, imported } = planning;
  const key = String(dataset["@id"]);
  const record: ElnPlannedRecord = {
    key,
    title: title(text(dataset.name) ?? key.replace(/^\.\//, "").replace(/\/+$/, "")),
    description: description(crate, dataset),
    tags: keywords(dataset.keywords),
    ...withWarnings(propertyValueExtras(crate, dataset), warnings),
    files: [],
  };
  const identifier = datasetIdentifier(dataset);
  const uniqueName = nameAllocator(record.title);
  const paths = new Set<string>();
  const addFile = (file: CrateNode) => {
    const name = fileName(file);
    const path = archivePath(String(file["@id"]));
    if (repositoryExport && path !== undefined && exports?.has(path)) {
      applyExport(record, exports.get(path), planning.oldIds, planning.exportLinks);
      return;
    }
    if (repositoryExport && name === `${identifier}.ttl`) return;
    const planned = plannedFile(file, files, warnings);
    if (planned === undefined || paths.has(planned.path)) return;
    paths.add(planned.path);
    planning.claimed.add(planned.path);
    record.files.push({ ...planned, name: uniqueName(planned.name) });
  };
  walkParts(crate, dataset, imported, addFile, (child) => {
    planning.links.push({
      from: key,
      to: String(child["@id"]),
      name: "has part",
      term: SCHEMA + "hasPart",
    });
  }, warnings);
  for (const ref of asList(dataset.mentions)) {
    const target = crate.resolve(ref);
    if (target !== undefined && target !== dataset && imported.has(target)) {
      planning.links.push({
        from: key,
        to: String(target["@id"]),
        name: "mentions",
        term: SCHEMA + "mentions",
      });
    }
  }
  return record;
}

/** The record of the root's loose files that no dataset holds, if there are any. */
function looseRecord(planning: Planning): ElnPlannedRecord | undefined {
  const { input: { crate, files, root }, warnings, claimed } = planning;
  const loose = asList(crate.root.hasPart).map((ref) => crate.resolve(ref)).filter((node) =>
    node !== undefined && hasType(node, "File") && !hasType(node, "Dataset")
  ) as CrateNode[];
  const looseFiles = loose.map((file) => plannedFile(file, files, warnings)).filter((file) =>
    file !== undefined && !claimed.has(file.path)
  ) as ElnPlannedFile[];
  if (looseFiles.length === 0) return undefined;
  const record: ElnPlannedRecord = {
    key: "./",
    title: title(text(crate.root.name) ?? root),
    description: description(crate, crate.root),
    tags: keywords(crate.root.keywords),
    extras: [],
    files: [],
  };
  const uniqueName = nameAllocator(record.title);
  const paths = new Set<string>();
  for (const file of looseFiles) {
    if (!paths.has(file.path)) {
      paths.add(file.path);
      record.files.push({ ...file, name: uniqueName(file.name) });
    }
  }
  return record;
}

/** The links found, with a repository export's links to records of the import, each once. */
function planLinks(planning: Planning): ElnPlannedLink[] {
  const links = [...planning.links];
  for (const link of planning.exportLinks) {
    const to = planning.oldIds.get(link.to);
    if (to !== undefined) links.push({ from: link.from, to, name: link.name, term: link.term });
  }
  const linkKeys = new Set<string>();
  return links.filter((link) => {
    const key = JSON.stringify([link.from, link.to, link.name]);
    if (linkKeys.has(key)) return false;
    linkKeys.add(key);
    return true;
  });
}

const SCHEMA = "http://schema.org/";

/** The datasets listed directly in the root's `hasPart`, each once. */
function topDatasets(crate: Crate): CrateNode[] {
  const result: CrateNode[] = [];
  for (const ref of asList(crate.root.hasPart)) {
    const node = crate.resolve(ref);
    if (
      node !== undefined && node !== crate.root && hasType(node, "Dataset") &&
      typeof node["@id"] === "string" && !result.includes(node)
    ) result.push(node);
  }
  return result;
}

/** Visits a dataset's files, descending into nested datasets that are not records themselves. */
function walkParts(
  crate: Crate,
  dataset: CrateNode,
  imported: ReadonlySet<CrateNode>,
  onFile: (file: CrateNode) => void,
  onChild: (child: CrateNode) => void,
  warnings: string[],
) {
  const seen = new Set<CrateNode>([dataset]);
  const visit = (node: CrateNode, depth: number) => {
    for (const ref of asList(node.hasPart)) {
      const part = crate.resolve(ref);
      if (part === undefined || seen.has(part)) continue;
      seen.add(part);
      if (hasType(part, "Dataset")) {
        if (imported.has(part)) onChild(part);
        else if (depth < MAX_NESTING) visit(part, depth + 1);
        else warnings.push(`'${part["@id"]}' is nested too deeply: its files are skipped`);
      } else if (hasType(part, "File") && typeof part["@id"] === "string") onFile(part);
    }
  };
  visit(dataset, 0);
}

function plannedFile(
  file: CrateNode,
  files: ReadonlyMap<string, { size: number }>,
  warnings: string[],
): ElnPlannedFile | undefined {
  const id = String(file["@id"]);
  const path = archivePath(id);
  if (path === undefined) {
    warnings.push(`'${id}' is not a file inside the crate (an external reference): not uploaded`);
    return undefined;
  }
  const entry = files.get(path);
  if (entry === undefined) {
    warnings.push(`'${id}' is listed in the metadata but missing from the archive: not uploaded`);
    return undefined;
  }
  const planned: ElnPlannedFile = { path, name: fileName(file), size: entry.size };
  const sha256 = text(file.sha256)?.trim();
  if (sha256 !== undefined) {
    if (/^[0-9a-f]{64}$/i.test(sha256)) planned.sha256 = sha256.toLowerCase();
    else {
      warnings.push(
        `'${id}' declares a sha256 that is no SHA-256 (${
          /^[0-9a-f]{32}$/i.test(sha256) ? "32 hex digits: an MD5?" : "not 64 hex digits"
        }): not verified`,
      );
    }
  }
  const mimetype = text(file.encodingFormat)?.trim().toLowerCase();
  if (mimetype !== undefined && MIMETYPE.test(mimetype) && mimetype.length <= 256) {
    planned.mimetype = mimetype;
  }
  const about = text(file.description);
  if (about !== undefined) planned.description = about.slice(0, DESCRIPTION_MAX);
  return planned;
}

/** The archive path of a file `@id`: URL-decoded, without `./` and empty segments. */
function archivePath(id: string): string | undefined {
  if (SCHEME.test(id)) return undefined;
  let decoded = id;
  try {
    decoded = decodeURIComponent(id);
  } catch { /* keep the raw id */ }
  const segments = decoded.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.length === 0 || segments.includes("..")) return undefined;
  return segments.join("/");
}

function fileName(file: CrateNode): string {
  const name = text(file.name)?.trim() ?? String(file["@id"]);
  const base = name.split("/").filter((s) => s !== "").pop() ?? name;
  let decoded = base;
  if (text(file.name) === undefined) {
    try {
      decoded = decodeURIComponent(base);
    } catch { /* keep it */ }
  }
  return decoded.slice(0, 256);
}

/** The highest suffix tried for a file name taken in a record (`stem_2.ext` … `stem_10000.ext`). */
const MAX_NAME_SUFFIX = 10_000;

/**
 * Gives each file of a record a name no earlier file of it has: the name, else `stem_2.ext`,
 * `stem_3.ext`, … up to {@linkcode MAX_NAME_SUFFIX} (then the crate is refused). Remembers the
 * next suffix per name, so many equal names cost no quadratic search.
 */
function nameAllocator(recordTitle: string): (name: string) => string {
  const taken = new Set<string>();
  const next = new Map<string, number>();
  return (name) => {
    let candidate = name;
    if (taken.has(name)) {
      const dot = name.lastIndexOf(".");
      const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
      let n = next.get(name) ?? 2;
      for (; taken.has(candidate = `${stem}_${n}${ext}`); n++) {
        if (n >= MAX_NAME_SUFFIX) {
          throw new InputError(
            `The record '${recordTitle}' has more than ${MAX_NAME_SUFFIX} files named '${name}' ` +
              "(or named like its numbered copies): rename them in the crate",
          );
        }
      }
      next.set(name, n + 1);
    }
    taken.add(candidate);
    return candidate;
  };
}

function datasetIdentifier(dataset: CrateNode): string {
  const identifier = text(dataset.identifier);
  if (identifier !== undefined) return identifier;
  const id = String(dataset["@id"]).replace(/\/+$/, "");
  return id.split("/").pop() ?? id;
}

function title(value: string): string {
  return value.replace(/\s+/g, " ").trim().slice(0, TITLE_MAX) || "Untitled";
}

function description(crate: Crate, node: CrateNode): string {
  const value = node.description;
  const direct = text(value) ?? text(crate.resolve(value)?.text) ?? text(node.text) ?? "";
  return direct.slice(0, DESCRIPTION_MAX);
}

function keywords(value: unknown): string[] {
  const tags = asList(value).flatMap((item) => typeof item === "string" ? item.split(",") : [])
    .map((tag) => tag.trim()).filter((tag) => tag !== "");
  return [...new Set(tags)];
}

function withWarnings(result: { extras: Extra[]; warnings: string[] }, warnings: string[]) {
  warnings.push(...result.warnings);
  return { extras: result.extras };
}

/** Applies the repository's JSON export of a record: extras, license, type, and its out-links. */
function applyExport(
  record: ElnPlannedRecord,
  json: unknown,
  oldIds: Map<number, string>,
  links: { from: string; to: number; name: string; term: string | null }[],
) {
  if (!isNode(json)) return;
  if (Array.isArray(json.extras)) record.extras = json.extras as Extra[];
  if (typeof json.license === "string" || json.license === null) record.license = json.license;
  if (typeof json.type === "string" || json.type === null) record.type = json.type;
  if (typeof json.id === "number") oldIds.set(json.id, record.key);
  for (const link of asList(json.links)) {
    if (!isNode(link) || !isNode(link.record_to) || typeof link.record_to.id !== "number") continue;
    if (typeof link.name !== "string") continue;
    links.push({
      from: record.key,
      to: link.record_to.id,
      name: link.name,
      term: typeof link.term === "string" ? link.term : null,
    });
  }
}
