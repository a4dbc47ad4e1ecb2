/**
 * Exports of records and collections (`json`, `rdf`, `pdf`, `qr`, `ro-crate`) and the record
 * extras export.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { EXPORT_TYPES, type Extra } from "../http/protocol.ts";
import { can, type Ctx, isObject, loadActive } from "./_context.ts";
import { notFound, serverJson } from "./_errors.ts";
import { attachment, recordFiles } from "./_files.ts";
import { collectionJson, fileJson, linkJson, recordJson } from "./_render.ts";
import { type Route, route } from "./_router.ts";
import { SERVER_VERSION } from "./_misc.ts";
import { openStored } from "./_storage.ts";
import type { CollectionData, RecordData } from "./_state.ts";
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
 *
 * @param ctx Request context.
 * @returns The filter.
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
 * @param extras Extras.
 * @param mask Exclusion mask.
 * @param inList Whether these are list items (masked by index).
 * @returns Filtered extras.
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
  const values = extras.map((e) =>
    e.type === "dict" || e.type === "list"
      ? plainExtras((e.value as Extra[]) ?? [], e.type === "list")
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
 * @param keys Keys to strip.
 * @param filter The export filter.
 * @returns The stripped object.
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
 * @param text Text.
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

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function crateEntries(
  ctx: Ctx,
  root: string,
  records: RecordData[],
  filter: ExportFilter,
  genre: string,
  title: string,
) {
  const encoder = new TextEncoder();
  const entries: ZipEntry[] = [];
  const graph: Record<string, unknown>[] = [];
  const datasets: { "@id": string }[] = [];
  for (const r of records) {
    const dir = `./${r.identifier}/`;
    const parts: Record<string, unknown>[] = [];
    const add = (name: string, bytes: Uint8Array, format: string) => {
      entries.push({
        name: `${root}/${r.identifier}/${name}`,
        size: bytes.byteLength,
        content: bytes,
      });
      parts.push({
        "@id": `${dir}${encodeURIComponent(name)}`,
        "@type": "File",
        name,
        encodingFormat: format,
        contentSize: String(bytes.byteLength),
        sha256: sha256(bytes),
      });
    };
    if (filter.exportData.includes("json")) {
      add(
        `${r.identifier}.json`,
        encoder.encode(serverJson(recordExport(ctx, r, filter), 2)),
        "application/json",
      );
    }
    if (filter.exportData.includes("rdf")) {
      add(`${r.identifier}.ttl`, encoder.encode(recordTurtle(ctx, r)), "text/turtle");
    }
    // The real server keeps a record's files in a `files/` folder beside its metadata, and
    // describes them in the metadata even when only the metadata is exported.
    for (const f of recordFiles(ctx, r).reverse()) {
      if (!filter.metadataOnly) {
        entries.push({
          name: `${root}/${r.identifier}/files/${f.name}`,
          size: f.size,
          content: () => openStored(ctx.state, f.path),
        });
      }
      parts.push({
        "@id": `${dir}files/${f.name.split("/").map(encodeURIComponent).join("/")}`,
        "@type": "File",
        name: f.name,
        description: f.description,
        encodingFormat: f.mimetype,
        contentSize: String(f.size),
      });
    }
    datasets.push({ "@id": dir });
    graph.push({
      "@id": dir,
      "@type": "Dataset",
      name: r.title,
      identifier: r.identifier,
      description: r.description,
      keywords: r.tags.join(","),
      dateCreated: r.createdAt,
      dateModified: r.lastModified,
      ...(r.license !== null ? { license: r.license } : {}),
      hasPart: parts.map((p) => ({ "@id": p["@id"] })),
    }, ...parts);
  }
  const metadata = {
    "@context": "https://w3id.org/ro/crate/1.1/context",
    "@graph": [
      {
        "@id": "ro-crate-metadata.json",
        "@type": "CreativeWork",
        about: { "@id": "./" },
        conformsTo: { "@id": "https://w3id.org/ro/crate/1.1" },
        dateCreated: new Date().toISOString(),
        sdPublisher: { "@id": "#publisher" },
        version: SERVER_VERSION,
      },
      { "@id": "#publisher", "@type": "Organization", name: "Kadi4Mat", url: ctx.origin },
      { "@id": "./", "@type": "Dataset", name: title, genre, hasPart: datasets },
      ...graph,
    ],
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
 *
 * @param content Body text or bytes.
 * @param name File name.
 * @returns The response.
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

function crateResponse(
  ctx: Ctx,
  identifier: string,
  records: RecordData[],
  filter: ExportFilter,
  genre: string,
  title: string,
) {
  const { entries, metadata } = crateEntries(ctx, identifier, records, filter, genre, title);
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
      return crateResponse(ctx, r.identifier, [r], filter, "record", r.title);
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
  return crateResponse(ctx, c.identifier, records, filter, "collection", c.title);
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
