/**
 * Exports of records and collections (`json`, `rdf`, `pdf`, `qr`, `ro-crate`) and the record
 * extras export.
 *
 * @module
 */
import { floatValues } from "../http/_float_json.ts";
import { EXPORT_TYPES, type Extra } from "../http/protocol.ts";
import { can, type Ctx, isObject, loadActive } from "./_context.ts";
import { notFound, serverJson } from "./_errors.ts";
import { attachment, recordFiles } from "./_files.ts";
import { collectionJson, fileJson, linkJson, recordJson } from "./_render.ts";
import { type Route, route } from "./_router.ts";
import { SERVER_VERSION } from "./_misc.ts";
import { openStored } from "./_storage.ts";
import { type CollectionData, now, type RecordData } from "./_state.ts";
import { LICENSES } from "./_schema.ts";
import { type ZipEntry, zipSize, zipStream } from "./_zip.ts";

const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  ),
  (c) => c.charCodeAt(0),
);
const PDF = "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n" +
  "2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n" +
  "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 100]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n";
const CONTENT_TYPES: Record<string, string> = {
  json: "application/json",
  ttl: "text/turtle",
  pdf: "application/pdf",
  png: "image/png",
  eln: "application/zip",
  jsonld: "application/ld+json",
};

/** The parsed `filter` of an export. */
export interface ExportFilter {
  user: boolean;
  links: boolean | "out" | "in";
  extras: Record<string, unknown>;
  metadataOnly: boolean;
  exportData: string[];
  records: boolean;
}

/**
 * Parses the `filter` query parameter of an export (invalid JSON: the defaults).
 */
export function parseFilter(ctx: Ctx): ExportFilter {
  let raw: unknown = {};
  try {
    raw = JSON.parse(ctx.url.searchParams.get("filter") ?? "{}");
  } catch { /* invalid filter: defaults */ }
  const f = isObject(raw) ? raw : {};
  return {
    user: f.user === true || !ctx.token.scopes.has("user.read"),
    links: f.links === true || f.links === "out" || f.links === "in" ? f.links : false,
    extras: isObject(f.extras) ? f.extras : {},
    metadataOnly: f.metadata_only === true,
    exportData: Array.isArray(f.export_data) ? f.export_data.map(String) : ["json", "rdf"],
    records: f.records === true,
  };
}

/**
 * Applies an exclusion mask to extras (`{"key": {}}` drops `key`; nested masks recurse).
 *
 * @param inList Whether these are list items (masked by index).
 */
export function maskExtras(
  extras: Extra[],
  mask: Record<string, unknown>,
  inList = false,
): Extra[] {
  const out: Extra[] = [];
  extras.forEach((extra, i) => {
    const m = mask[inList ? String(i) : extra.key ?? ""];
    if (isObject(m) && Object.keys(m).length === 0) return;
    if (isObject(m) && (extra.type === "dict" || extra.type === "list")) {
      out.push({ ...extra, value: maskExtras(extra.value as Extra[], m, extra.type === "list") });
    } else out.push(extra);
  });
  return out;
}

function plainExtras(extras: Extra[], asList: boolean): unknown {
  // A whole float stays a float (`3.0`), as Python writes it.
  const values = extras.map((e) =>
    e.type === "dict" || e.type === "list"
      ? plainExtras((e.value as Extra[]) ?? [], e.type === "list")
      : e.type === "float"
      ? floatValues(e.value ?? null)
      : e.value ?? null
  );
  if (asList) return values;
  return Object.fromEntries(extras.map((e, i) => [e.key ?? String(i), values[i]]));
}

function strip(obj: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  for (const k of keys) delete obj[k];
  return obj;
}

/** What a resource's JSON loses in an export. */
export const RESOURCE_OMITTED: string[] = [
  "_links",
  "_actions",
  "visibility",
  "plain_description",
  "state",
];

/**
 * Strips `keys` and reduces (or, with the `user` filter, drops) the creator.
 *
 * @param obj A resource's JSON (changed in place).
 */
export function exportJson(
  obj: Record<string, unknown>,
  keys: string[],
  filter: ExportFilter,
): Record<string, unknown> {
  const out = strip(obj, keys);
  if (filter.user) delete out.creator;
  else if (isObject(out.creator)) {
    const { id, displayname, orcid } = out.creator;
    out.creator = { id, displayname, orcid };
  }
  return out;
}

function recordExport(ctx: Ctx, r: RecordData, filter: ExportFilter): Record<string, unknown> {
  const out = exportJson(recordJson(ctx, r), RESOURCE_OMITTED, filter);
  out.extras = maskExtras(r.extras, filter.extras);
  out.files = recordFiles(ctx, r).map((f) =>
    exportJson(fileJson(ctx, f), ["_links", "_actions", "storage_type", "state"], filter)
  );
  const links = [...ctx.state.links.values()].filter((l) => {
    const dir = l.fromId === r.id ? "out" : l.toId === r.id ? "in" : null;
    if (dir === null || filter.links === true || filter.links === dir) return false;
    const other = ctx.state.records.get(dir === "out" ? l.toId : l.fromId);
    return other !== undefined && other.state === "active" &&
      can(ctx.state, ctx.user.id, other, "read");
  });
  out.links = links.map((l) => {
    const json = linkJson(ctx, l, l.fromId === r.id ? "out" : "in");
    const link = exportJson(json, ["_links", "_actions"], filter);
    // The linked record is exported like the record itself: reduced creator, no state.
    for (const side of ["record_from", "record_to"]) {
      if (isObject(link[side])) link[side] = exportJson(link[side], RESOURCE_OMITTED, filter);
    }
    return link;
  });
  return out;
}

/**
 * A Turtle string literal.
 *
 * @returns The quoted, escaped literal.
 */
export function turtleString(text: string): string {
  const escaped = text.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
  return `"${escaped.replace(/\n/g, "\\n").replace(/\r/g, "\\r")}"`;
}

function recordTurtle(ctx: Ctx, r: RecordData): string {
  const lines = [
    "@prefix dcterms: <http://purl.org/dc/terms/> .",
    "@prefix kadi: <https://kadi.iam.kit.edu/ontology#> .",
    "",
    `<${ctx.base}/records/${r.id}> a kadi:Record ;`,
    `  dcterms:identifier ${turtleString(r.identifier)} ;`,
    `  dcterms:title ${turtleString(r.title)} ;`,
    `  dcterms:description ${turtleString(r.description)} ;`,
    ...r.tags.map((t) => `  dcterms:subject ${turtleString(t)} ;`),
    `  dcterms:created ${turtleString(r.createdAt)} .`,
    "",
  ];
  return lines.join("\n");
}

/** Kadi's own site, the publisher of every RO-Crate (`const.URL_INDEX`). */
const KADI_URL = "https://kadi.iam.kit.edu";

/**
 * Python's `urllib.parse.quote`: UTF-8 percent-encoding of everything but letters, digits,
 * `_.-~` and `safe`.
 */
function pyQuote(text: string, safe: string): string {
  let out = "";
  for (const ch of text) {
    if (/[A-Za-z0-9_.\-~]/.test(ch) || safe.includes(ch)) out += ch;
    else {
      for (const byte of new TextEncoder().encode(ch)) {
        out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
      }
    }
  }
  return out;
}

/** Flask's `url_for(..., _anchor=…)`: the anchor quoted with its safe characters. */
function anchored(url: string, anchor: string): string {
  return `${url}#${pyQuote(anchor, "%!#$&'()*+,/:;=?@")}`;
}

/** A Markdown description as the crate's `TextObject` entity. */
function textObject(id: string, text: string): Record<string, unknown> {
  return { "@id": id, "@type": "TextObject", encodingFormat: "text/markdown", text };
}

/**
 * The RO-Crate metadata graph of the real server (Kadi's `RecordROCrate`): the descriptor, the
 * root dataset, the publisher, then per record its description, author, license and extras
 * (`PropertyValue`s, nested keys dotted) before the record's dataset, its export files and its
 * files (each with its description and author). Authors appear once.
 */
class CrateGraph {
  readonly graph: Record<string, unknown>[];
  readonly root: Record<string, unknown>;

  constructor(name: string, genre: string) {
    const created = now();
    this.root = {
      "@id": "./",
      "@type": "Dataset",
      datePublished: created.slice(0, 10),
      description:
        "An RO-Crate exported from Kadi4Mat following the ELN file format specification.",
      genre,
      license:
        "For license information, please refer to the individual dataset nodes, if applicable.",
      name,
    };
    this.graph = [
      {
        "@id": "ro-crate-metadata.json",
        "@type": "CreativeWork",
        about: { "@id": "./" },
        conformsTo: { "@id": "https://w3id.org/ro/crate/1.1" },
        dateCreated: created,
        sdPublisher: { "@id": KADI_URL },
        version: SERVER_VERSION,
      },
      this.root,
      {
        "@id": KADI_URL,
        "@type": "Organization",
        description: "A generic and open source virtual research environment.",
        name: "Kadi4Mat",
        url: KADI_URL,
      },
    ];
  }

  /** The author's `Person` entity (added once), referenced by `@id`. */
  author(ctx: Ctx, creator: unknown): { "@id": string } {
    const c = creator as { id: number; displayname: string; orcid: string | null };
    const id = c.orcid ? `https://orcid.org/${c.orcid}` : `${ctx.origin}/users/${c.id}`;
    if (!this.graph.some((e) => e["@id"] === id)) {
      this.graph.push({ "@id": id, "@type": "Person", name: c.displayname });
    }
    return { "@id": id };
  }

  /** A description's `TextObject` (added), referenced by `@id`. */
  description(id: string, text: string): { "@id": string } {
    this.graph.push(textObject(id, text));
    return { "@id": id };
  }

  /** The extras with a value as `PropertyValue`s (added), referenced by `@id`. */
  properties(ctx: Ctx, recordId: number, extras: Extra[], parent = ""): { "@id": string }[] {
    const refs: { "@id": string }[] = [];
    extras.forEach((extra, index) => {
      const key = parent ? `${parent}.${extra.key ?? index}` : `${extra.key ?? index}`;
      if (extra.type === "dict" || extra.type === "list") {
        refs.push(...this.properties(ctx, recordId, (extra.value as Extra[]) ?? [], key));
        return;
      }
      if (extra.value === null || extra.value === undefined) return;
      const id = anchored(`${ctx.origin}/records/${recordId}`, `extras-${key}`);
      const float = (v: unknown) => (extra.type === "float" ? floatValues(v) : v);
      const entity: Record<string, unknown> = {
        "@id": id,
        "@type": "PropertyValue",
        propertyID: key,
        value: float(extra.value),
      };
      if (extra.term) entity.identifier = extra.term;
      if (extra.description) entity.description = extra.description;
      if (extra.unit) entity.unitText = extra.unit;
      const range = isObject(extra.validation) && isObject(extra.validation.range)
        ? extra.validation.range
        : undefined;
      if (range?.min !== null && range?.min !== undefined) entity.minValue = float(range.min);
      if (range?.max !== null && range?.max !== undefined) entity.maxValue = float(range.max);
      refs.push({ "@id": id });
      this.graph.push(entity);
    });
    return refs;
  }
}

/** The crate's export files of a record, by `export_data` type: file extension and type. */
const CRATE_EXPORTS: Record<string, [string, string]> = {
  json: ["json", "application/json"],
  rdf: ["ttl", "text/turtle"],
  pdf: ["pdf", "application/pdf"],
};

/** What a crate is about: a record (itself the only part) or a collection (with its records). */
type CrateRoot =
  | { genre: "record"; identifier: string; title: string }
  | { genre: "collection"; collection: CollectionData };

function crateEntries(ctx: Ctx, about: CrateRoot, records: RecordData[], filter: ExportFilter) {
  const encoder = new TextEncoder();
  const entries: ZipEntry[] = [];
  const root = about.genre === "record" ? about.identifier : about.collection.identifier;
  const crate = new CrateGraph(
    about.genre === "record" ? about.title : about.collection.title,
    about.genre,
  );
  if (about.genre === "collection") {
    const c = about.collection;
    const data = exportJson(collectionJson(ctx, c), RESOURCE_OMITTED, filter);
    Object.assign(crate.root, {
      dateCreated: data.created_at,
      dateModified: data.last_modified,
      identifier: c.identifier,
    });
    if (c.description) {
      crate.root.description = crate.description(
        anchored(`${ctx.origin}/collections/${c.id}`, "description"),
        c.description,
      );
    }
    if (c.tags.length > 0) crate.root.keywords = c.tags.join(", ");
    if (data.creator !== undefined) crate.root.author = crate.author(ctx, data.creator);
  }
  const datasets: { "@id": string }[] = [];
  for (const r of records) {
    const data = recordExport(ctx, r, filter);
    const dir = `./${r.identifier}/`;
    const dataset: Record<string, unknown> = {
      "@id": dir,
      "@type": "Dataset",
      dateCreated: data.created_at,
      dateModified: data.last_modified,
      identifier: r.identifier,
      name: r.title,
    };
    if (r.description) {
      dataset.description = crate.description(
        anchored(`${ctx.origin}/records/${r.id}`, "description"),
        r.description,
      );
    }
    if (r.tags.length > 0) dataset.keywords = r.tags.join(", ");
    if (data.creator !== undefined) dataset.author = crate.author(ctx, data.creator);
    const license = LICENSES.find((l) => l.name === r.license);
    if (license !== undefined) {
      dataset.license = { "@id": license.url };
      crate.graph.push({
        "@id": license.url,
        "@type": "CreativeWork",
        identifier: license.name,
        name: license.title,
        url: license.url,
      });
    }
    const properties = crate.properties(ctx, r.id, data.extras as Extra[]);
    if (properties.length > 0) dataset.variableMeasured = properties;
    crate.graph.push(dataset);
    const parts: { "@id": string }[] = [];
    for (const type of filter.exportData) {
      const known = CRATE_EXPORTS[type];
      if (known === undefined) continue;
      const [ext, format] = known;
      const name = `${r.identifier}.${ext}`;
      const bytes = type === "json"
        ? encoder.encode(serverJson(data, 2))
        : type === "rdf"
        ? encoder.encode(recordTurtle(ctx, r))
        : encoder.encode(PDF);
      entries.push({
        name: `${root}/${r.identifier}/${name}`,
        size: bytes.byteLength,
        content: bytes,
      });
      parts.push({ "@id": `${dir}${name}` });
      crate.graph.push({
        "@id": `${dir}${name}`,
        "@type": "File",
        contentSize: String(bytes.byteLength),
        dateCreated: now(),
        encodingFormat: format,
        name,
      });
    }
    // A record's files lie in a `files/` folder beside its metadata, '/' in their names replaced
    // by '_', and are described even when only the metadata is exported.
    const files = data.files as Record<string, unknown>[];
    const stored = recordFiles(ctx, r).reverse();
    for (const f of stored) {
      const flat = f.name.replaceAll("/", "_");
      if (!filter.metadataOnly) {
        entries.push({
          name: `${root}/${r.identifier}/files/${flat}`,
          size: f.size,
          content: () => openStored(ctx.state, f.path),
        });
      }
      const json = files.find((file) => file.id === f.id) ?? {};
      const id = `${dir}files/${pyQuote(flat, "")}`;
      const entity: Record<string, unknown> = {
        "@id": id,
        "@type": "File",
        contentSize: String(f.size),
        dateCreated: f.createdAt,
        dateModified: f.lastModified,
        encodingFormat: f.mimetype,
        identifier: f.id,
        name: f.name,
      };
      if (f.description) {
        entity.description = crate.description(
          anchored(`${ctx.origin}/records/${r.id}/files/${f.id}`, "description"),
          f.description,
        );
      }
      if (json.creator !== undefined) entity.author = crate.author(ctx, json.creator);
      parts.push({ "@id": id });
      crate.graph.push(entity);
    }
    if (parts.length > 0) dataset.hasPart = parts;
    datasets.push({ "@id": dir });
  }
  if (datasets.length > 0) crate.root.hasPart = datasets;
  const metadata = {
    "@context": "https://w3id.org/ro/crate/1.1/context",
    "@graph": crate.graph,
  };
  const bytes = encoder.encode(serverJson(metadata, 2));
  entries.unshift({
    name: `${root}/ro-crate-metadata.json`,
    size: bytes.byteLength,
    content: bytes,
  });
  return { entries, metadata: bytes };
}

/**
 * An attachment response with the content type guessed from the file name.
 */
export function download(content: string | Uint8Array<ArrayBuffer>, name: string): Response {
  const body = typeof content === "string" ? new TextEncoder().encode(content) : content;
  return streamDownload(body, name, body.byteLength);
}

function streamDownload(body: BodyInit, name: string, size?: number): Response {
  const ext = name.split(".").pop() ?? "";
  const headers: Record<string, string> = {
    "content-type": CONTENT_TYPES[ext] ?? "application/octet-stream",
    "content-disposition": attachment(name),
  };
  if (size !== undefined) headers["content-length"] = String(size);
  return new Response(body, { headers });
}

function crateResponse(ctx: Ctx, about: CrateRoot, records: RecordData[], filter: ExportFilter) {
  const identifier = about.genre === "record" ? about.identifier : about.collection.identifier;
  const { entries, metadata } = crateEntries(ctx, about, records, filter);
  if (filter.metadataOnly) return download(metadata, `${identifier}.jsonld`);
  return streamDownload(zipStream(entries), `${identifier}.eln`, zipSize(entries));
}

function exportRecord(ctx: Ctx): Response {
  const r = loadActive<RecordData>(ctx, "record", "id", "read", "record.read");
  const type = ctx.params.type!;
  const ext = (EXPORT_TYPES.record as Record<string, string>)[type];
  if (ext === undefined) throw notFound();
  const filter = parseFilter(ctx);
  const name = `${r.identifier}.${ext}`;
  switch (type) {
    case "json":
      return download(serverJson(recordExport(ctx, r, filter), 2), name);
    case "rdf":
      return download(recordTurtle(ctx, r), name);
    case "pdf":
      return download(PDF, name);
    case "qr":
      return download(PNG.slice(), name);
    default:
      return crateResponse(
        ctx,
        { genre: "record", identifier: r.identifier, title: r.title },
        [r],
        filter,
      );
  }
}

function exportCollection(ctx: Ctx): Response {
  const c = loadActive<CollectionData>(ctx, "collection", "id", "read", "collection.read");
  const type = ctx.params.type!;
  const ext = (EXPORT_TYPES.collection as Record<string, string>)[type];
  if (ext === undefined) throw notFound();
  const filter = parseFilter(ctx);
  if (!ctx.token.scopes.has("record.read")) filter.records = true;
  const records = filter.records ? [] : [...c.recordIds].map((id) => ctx.state.records.get(id)!)
    .filter((r) => r && r.state === "active" && can(ctx.state, ctx.user.id, r, "read"));
  const name = `${c.identifier}.${ext}`;
  if (type === "json") {
    const out = exportJson(collectionJson(ctx, c), RESOURCE_OMITTED, filter);
    if (!filter.records) out.records = records.map((r) => recordExport(ctx, r, filter));
    return download(serverJson(out, 2), name);
  }
  if (type === "rdf") return download(records.map((r) => recordTurtle(ctx, r)).join("\n"), name);
  if (type === "qr") return download(PNG.slice(), name);
  return crateResponse(ctx, { genre: "collection", collection: c }, records, filter);
}

function exportExtras(ctx: Ctx): Response {
  const r = loadActive<RecordData>(ctx, "record", "id", "read", "record.read");
  if (ctx.params.type !== "json") throw notFound();
  const filter = parseFilter(ctx);
  let format = "standard";
  try {
    const raw: unknown = JSON.parse(ctx.url.searchParams.get("filter") ?? "{}");
    if (isObject(raw) && raw.format === "plain") format = "plain";
  } catch { /* defaults */ }
  const extras = maskExtras(r.extras, filter.extras);
  const body = format === "plain" ? plainExtras(extras, false) : extras;
  return download(serverJson(body, 2), `${r.identifier}-extras.json`);
}

/** Export routes. */
export const exportRoutes: Route[] = [
  route("GET", "/records/:id/export/:type:str", exportRecord),
  route("GET", "/records/:id/extras/export/:type:str", exportExtras),
  route("GET", "/collections/:id/export/:type:str", exportCollection),
];
