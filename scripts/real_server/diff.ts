// deno-lint-ignore-file no-console -- a script that reports to the terminal
/**
 * Sends the same HTTP requests to the real Kadi4Mat and to the local server (`lib/testing`) and
 * prints where they differ: status code, content type and disposition, and the shape of JSON
 * bodies (keys and value types, recursively). Values that differ by nature (ids, timestamps,
 * hosts) are not compared, except where the request pins them (error texts, rendered numbers).
 *
 * Usage: deno run <perms> scripts/real_server/diff.ts <host> <token-file>
 *
 * @example
 * ```sh
 * scripts/real_server/run.sh   # runs this after the CLI workflow
 * ```
 * @module
 */
import { startServer } from "../../lib/testing/mod.ts";

interface Answer {
  status: number;
  type: string;
  disposition: string;
  text: string;
  json: unknown;
}

interface Target {
  base: string;
  pat: string;
  ids: Record<string, string>;
}

const [host, tokenFile] = Deno.args;
if (!host || !tokenFile) {
  console.error("usage: diff.ts <host> <token-file>");
  Deno.exit(2);
}
const tokens = Object.fromEntries(
  (await Deno.readTextFile(tokenFile)).split("\n").filter((l) => l.includes("=")).map((l) => {
    const i = l.indexOf("=");
    return [l.slice(0, i), l.slice(i + 1)];
  }),
) as Record<string, string>;

await using local = await startServer({ users: [{ username: "bob", displayname: "Bob Real" }] });
const real: Target = { base: `${host}/api/v1`, pat: tokens.KADI_TOKEN ?? "", ids: {} };
const mine: Target = { base: `${local.url}/api/v1`, pat: local.pat, ids: {} };

async function call(
  t: Target,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const url = t.base + path.replace(/\{(\w+)\}/g, (_, k: string) => t.ids[k] ?? `{${k}}`);
  const init: RequestInit = { method, headers: { Authorization: `Bearer ${t.pat}`, ...headers } };
  if (body instanceof Uint8Array) init.body = body as Uint8Array<ArrayBuffer>;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)["Content-Type"] = "application/json";
  }
  const r = await fetch(url, init);
  const bytes = new Uint8Array(await r.arrayBuffer());
  const type = r.headers.get("content-type") ?? "";
  const text = type.includes("json") ? new TextDecoder().decode(bytes) : `<${bytes.length} bytes>`;
  let json: unknown = undefined;
  try {
    json = type.includes("json") && text ? JSON.parse(text) : undefined;
  } catch { /* not JSON */ }
  return {
    status: r.status,
    type,
    disposition: r.headers.get("content-disposition") ?? "",
    text,
    json,
  };
}

function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? [shape(v[0])] : [];
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.keys(v).sort().map((k) => [k, shape((v as Record<string, unknown>)[k])]),
    );
  }
  return v === null ? "null" : typeof v;
}

function shapeDiff(a: unknown, b: unknown, path = ""): string[] {
  if (typeof a === "string" || typeof b === "string" || !a || !b) {
    return JSON.stringify(a) === JSON.stringify(b)
      ? []
      : [`${path || "."}: real ${JSON.stringify(a)} local ${JSON.stringify(b)}`];
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) {
      return [`${path}: real ${JSON.stringify(a)} local ${JSON.stringify(b)}`];
    }
    if (a.length === 0 || b.length === 0) {
      return a.length === b.length
        ? []
        : [`${path}[]: real ${a.length ? "items" : "empty"} local ${b.length ? "items" : "empty"}`];
    }
    return shapeDiff(a[0], b[0], `${path}[0]`);
  }
  const ao = a as Record<string, unknown>, bo = b as Record<string, unknown>;
  const out: string[] = [];
  for (const k of new Set([...Object.keys(ao), ...Object.keys(bo)])) {
    if (!(k in bo)) out.push(`${path}.${k}: only real (${JSON.stringify(ao[k])})`);
    else if (!(k in ao)) out.push(`${path}.${k}: only local (${JSON.stringify(bo[k])})`);
    else out.push(...shapeDiff(ao[k], bo[k], `${path}.${k}`));
  }
  return out;
}

let probes = 0;
let differing = 0;

interface Probe {
  /** Compare these fields' values too (dotted paths into the JSON body). */
  values?: string[];
  /** A search: its first item depends on the search index (refreshed about once a second). */
  search?: boolean;
  /** Compare the raw JSON text these patterns match (number rendering, key order). */
  raw?: RegExp[];
  /** Remember ids from the answer, per target: name → dotted path. */
  keep?: Record<string, string>;
  headers?: Record<string, string>;
}

function at(v: unknown, path: string): unknown {
  let cur = v;
  for (const p of path.split(".")) cur = (cur as Record<string, unknown> | undefined)?.[p];
  return cur;
}

async function probe(
  method: string,
  path: string,
  body?: unknown,
  opts: Probe = {},
): Promise<[Answer, Answer]> {
  probes++;
  const a = await call(real, method, path, body, opts.headers);
  const b = await call(mine, method, path, body, opts.headers);
  for (const [name, p] of Object.entries(opts.keep ?? {})) {
    real.ids[name] = String(at(a.json, p));
    mine.ids[name] = String(at(b.json, p));
  }
  const diffs: string[] = [];
  if (a.status !== b.status) diffs.push(`status: real ${a.status} local ${b.status}`);
  const ta = a.type.split(";")[0], tb = b.type.split(";")[0];
  if (ta !== tb) diffs.push(`content-type: real ${a.type} local ${b.type}`);
  const norm = (d: string, t: Target) => d.replaceAll(t.ids.ident ?? "\u0000", "<id>");
  if (norm(a.disposition, real) !== norm(b.disposition, mine)) {
    diffs.push(`content-disposition: real ${a.disposition} local ${b.disposition}`);
  }
  if (a.json !== undefined || b.json !== undefined) {
    diffs.push(...shapeDiff(shape(a.json), shape(b.json)).map((d) => `shape ${d}`));
  }
  for (const v of opts.values ?? []) {
    const x = JSON.stringify(at(a.json, v)), y = JSON.stringify(at(b.json, v));
    if (x !== y) diffs.push(`value ${v}: real ${x} local ${y}`);
  }
  for (const re of opts.raw ?? []) {
    const x = a.text.match(re)?.[0], y = b.text.match(re)?.[0];
    if (x !== y) diffs.push(`raw ${re}: real ${x} local ${y}`);
  }
  const label = `${method} ${path}`;
  // What the servers hold differs (the real one keeps earlier runs' data): a list that is empty
  // on one side only, or a next/prev link, is a note, not a difference.
  const isData = (d: string) =>
    (opts.search === true && d.startsWith("shape .items[0].")) ||
    /^shape (\.items)?\[\]: real (empty|items) local (empty|items)$/.test(d) ||
    /^shape \._pagination\._links\.(next|prev): only (real|local)/.test(d);
  for (const d of diffs.filter(isData)) console.log(`        (data) ${d}`);
  diffs.splice(0, diffs.length, ...diffs.filter((d) => !isData(d)));
  if (diffs.length) {
    differing++;
    console.log(`DIFF  ${label}`);
    for (const d of diffs) console.log(`        ${d.slice(0, 400)}`);
  } else console.log(`same  ${label}`);
  return [a, b];
}

const tag = Date.now().toString(36);
const ident = `diff-${tag}`;
real.ids.ident = mine.ids.ident = ident;

await probe("GET", "/info", undefined, { values: ["version"] });
await probe("GET", "/records/999999", undefined, { values: ["code", "message", "description"] });
await probe("GET", "/records/identifier/no-such-record", undefined, {
  values: ["code", "message", "description"],
});
await probe("GET", "/nonexistent-endpoint", undefined, {
  values: ["code", "message", "description"],
});
await probe("POST", "/records", {
  identifier: ident,
  title: "Diff A",
  extras: [
    { key: "whole", type: "float", value: 3.0 },
    { key: "half", type: "float", value: 21.5, unit: "degC" },
    { key: "count", type: "int", value: 7 },
    { key: "when", type: "date", value: "2024-05-01T12:00:00+00:00" },
    {
      key: "nested",
      type: "dict",
      value: [{ key: "x", type: "list", value: [{ type: "float", value: 1e21 }] }],
    },
  ],
}, {
  keep: { rid: "id" },
  values: ["extras", "visibility", "state", "type", "license", "tags"],
  raw: [/\{"key":"whole"[^}]*\}/, /\{"key":"count"[^}]*\}/, /"value":1[e0-9+.]*\}/],
});
await probe("POST", "/records", { identifier: ident, title: "again" }, {
  values: ["code", "message", "description", "errors"],
});
await probe("POST", "/records", { title: "no identifier" }, { values: ["code", "errors"] });
await probe("GET", "/records/{rid}", undefined, { values: ["extras"] });
await probe("GET", `/records/identifier/${ident}`);
await probe("PATCH", "/records/{rid}", { description: "Some *markdown*", license: "CC-BY-4.0" }, {
  values: ["description", "plain_description", "license"],
});
await probe("POST", "/records", { identifier: `${ident}-b`, title: "Diff B" }, {
  keep: { rid2: "id" },
});
await probe("GET", "/records?per_page=2&page=1", undefined, {
  values: ["_pagination.per_page"],
  search: true,
});
await probe("GET", "/records?per_page=500&page=0", undefined, {
  values: ["_pagination.per_page", "_pagination.page"],
  search: true,
});

// Files: direct upload, name clash, listing, download, ZIP.
await probe("POST", "/records/{rid}/uploads", { name: "f.txt", size: 5 }, {
  keep: { up: "id" },
  values: ["upload_type", "chunk_count", "state", "_meta"],
});
await probe("GET", "/records/{rid}/uploads", undefined);
await probe("GET", "/records/{rid}/uploads/{up}", undefined, { values: ["state"] });
await probe("PUT", "/records/{rid}/uploads/{up}", new TextEncoder().encode("hello"), {
  keep: { fid: "id" },
  values: ["name", "size", "mimetype", "checksum", "state", "magic_mimetype"],
  headers: { "Content-Type": "application/octet-stream" },
});
await probe("GET", "/records/{rid}/uploads/{up}", undefined, { values: ["code", "state"] });
await probe("POST", "/records/{rid}/uploads", { name: "f.txt", size: 5 }, {
  values: ["code", "message", "description"],
});
await probe("POST", "/records/{rid}/uploads", { name: "big.bin", size: 60_000_000 }, {
  keep: { up2: "id" },
  values: ["upload_type", "chunk_count", "_meta", "state"],
});
await probe("POST", "/records/{rid}/uploads/{up2}", undefined, {
  values: ["code", "message", "description"],
});
await probe("PUT", "/records/{rid}/uploads/{up2}", new Uint8Array(10), {
  values: ["code", "description", "errors"],
  headers: {
    "Content-Type": "application/octet-stream",
    "Kadi-Chunk-Index": "0",
    "Kadi-Chunk-Size": "10",
  },
});
await probe("PUT", "/records/{rid}/uploads/{up2}", new Uint8Array(10), {
  values: ["code", "description", "errors"],
  headers: {
    "Content-Type": "application/octet-stream",
    "Kadi-Chunk-Index": "5",
    "Kadi-Chunk-Size": "10",
  },
});
await probe("GET", "/records/{rid}/uploads/{up2}", undefined, { values: ["state", "chunks"] });
await probe("DELETE", "/records/{rid}/uploads/{up2}");
await probe("GET", "/records/{rid}/files", undefined, { values: ["_pagination.total_items"] });
await probe("GET", "/records/{rid}/files/{fid}");
await probe("GET", "/records/{rid}/files/name/f.txt");
await probe("GET", "/records/{rid}/files/name/missing.txt", undefined, {
  values: ["code", "description"],
});
await probe("GET", "/records/{rid}/files/{fid}/download");
await probe("GET", "/records/{rid}/files/download");
await probe("PATCH", "/records/{rid}/files/{fid}", { name: "g.txt", mimetype: "text/csv" }, {
  values: ["name", "mimetype"],
});
await probe("PUT", "/records/{rid}/files/{fid}", { size: 3 }, {
  values: ["upload_type", "state", "name"],
});

// Links, roles, revisions.
await probe("POST", "/records/{rid}/records", { name: "derived", record_to: { id: 0 } }, {
  values: ["code", "description"],
});
real.ids.rid2n = real.ids.rid2!;
mine.ids.rid2n = mine.ids.rid2!;
{
  probes++;
  const a = await call(real, "POST", `/records/{rid}/records`, {
    name: "derived",
    record_to: { id: Number(real.ids.rid2) },
  });
  const b = await call(mine, "POST", `/records/{rid}/records`, {
    name: "derived",
    record_to: { id: Number(mine.ids.rid2) },
  });
  real.ids.link = String((a.json as { id: number }).id);
  mine.ids.link = String((b.json as { id: number }).id);
  const d = [
    ...(a.status !== b.status ? [`status: real ${a.status} local ${b.status}`] : []),
    ...shapeDiff(shape(a.json), shape(b.json)),
  ];
  console.log(
    d.length
      ? `DIFF  POST /records/{rid}/records\n${d.map((x) => `        ${x}`).join("\n")}`
      : "same  POST /records/{rid}/records",
  );
  if (d.length) differing++;
}
await probe("GET", "/records/{rid}/records?direction=out");
await probe("GET", "/records/{rid2}/records?direction=in");
await probe("PATCH", "/records/{rid}/records/{link}", { name: "renamed" }, { values: ["name"] });
await probe("POST", "/records/{rid}/roles/users", { user: { id: 2 }, role: { name: "member" } });
await probe("POST", "/records/{rid}/roles/users", { user: { id: 2 }, role: { name: "member" } }, {
  values: ["code", "description"],
});
await probe("POST", "/records/{rid}/roles/users", { user: { id: 2 }, role: { name: "nope" } }, {
  values: ["code", "description", "errors"],
});
await probe("GET", "/records/{rid}/roles/users");
await probe("PATCH", "/records/{rid}/roles/users/2", { name: "editor" });
await probe("PATCH", "/records/{rid}/roles/users/1", { name: "editor" }, {
  values: ["code", "description"],
});
await probe("DELETE", "/records/{rid}/roles/users/2");
await probe("GET", "/records/{rid}/revisions");
await probe("GET", "/records/{rid}/files/revisions");

// Exports.
for (const t of ["json", "rdf", "pdf", "qr", "ro-crate", "nope"]) {
  await probe("GET", `/records/{rid}/export/${t}`);
}
await probe("GET", "/records/{rid}/extras/export/json", undefined, {
  raw: [/"value": 3[.0-9]*/, /"value": 1[e0-9+.]*/],
});
await probe(
  "GET",
  `/records/{rid}/export/ro-crate?filter=${encodeURIComponent('{"metadata_only": true}')}`,
);
await probe(
  "GET",
  `/records/{rid}/extras/export/json?filter=${encodeURIComponent('{"format": "plain"}')}`,
  undefined,
  { raw: [/"whole": 3[.0-9]*/, /"count": 7[.0-9]*/, /1[e0-9+.]*\s*\]/] },
);

// A file name with '/' (a folder tree in a record), with a description: allowed, kept as is,
// found by name; in an RO-Crate its '/' become '_'.
await probe("POST", "/records/{rid}/uploads", {
  name: "raw/deep/x.txt",
  size: 2,
  description: "A *file*",
}, {
  keep: { up3: "id" },
  values: ["name", "description"],
});
await probe("PUT", "/records/{rid}/uploads/{up3}", new TextEncoder().encode("x\n"), {
  values: ["name", "size", "description", "mimetype"],
  headers: { "Content-Type": "application/octet-stream" },
});
await probe("GET", "/records/{rid}/files/name/raw/deep/x.txt", undefined, {
  values: ["name", "description"],
});

/**
 * An RO-Crate's metadata graph as comparable lines: per entity its type and keys, and the values
 * that do not depend on the server (extras' keys and rendered values, file paths in the crate).
 */
function crateEntities(text: string): string[] {
  let graph: Record<string, unknown>[] = [];
  try {
    graph = (JSON.parse(text) as { "@graph": Record<string, unknown>[] })["@graph"];
  } catch { /* not JSON: no entities */ }
  return graph.map((e) => {
    const type = String(e["@type"]);
    let line = `${type} {${Object.keys(e).sort().join(",")}}`;
    if (type === "PropertyValue") {
      const raw = text.match(new RegExp(`"propertyID": "${e.propertyID}",\\s*"value": ([^,\\n]*)`));
      line += ` ${e.propertyID}=${raw?.[1] ?? JSON.stringify(e.value)} ${e.unitText ?? ""}`;
    }
    if (type === "File") line += ` ${String(e["@id"]).replace(/^\.\/[^/]*\//, "")}`;
    if (type === "TextObject" || type === "CreativeWork") {
      line += ` ${String(e.text ?? e.identifier ?? "").slice(0, 40)}`;
    }
    return line;
  });
}
{
  probes++;
  const path = `/records/{rid}/export/ro-crate?filter=${
    encodeURIComponent('{"metadata_only": true}')
  }`;
  const [a, b] = await Promise.all([call(real, "GET", path), call(mine, "GET", path)]);
  const x = crateEntities(a.text), y = crateEntities(b.text);
  const diffs = [...x.filter((l) => !y.includes(l)).map((l) => `only real: ${l}`)];
  diffs.push(...y.filter((l) => !x.includes(l)).map((l) => `only local: ${l}`));
  if (diffs.length) differing++;
  console.log(`${diffs.length ? "DIFF" : "same"}  RO-Crate entities of ${path} (${x.length} real)`);
  for (const d of diffs) console.log(`        ${d.slice(0, 400)}`);
}

// Collections, templates, groups.
await probe("POST", "/collections", { identifier: `${ident}-c`, title: "C" }, {
  keep: { cid: "id" },
});
await probe("POST", "/collections", { identifier: `${ident}-c2`, title: "C2" }, {
  keep: { cid2: "id" },
});
await probe("POST", "/collections/{cid}/records", { id: 0 }, { values: ["code", "description"] });
{
  probes++;
  const a = await call(real, "POST", "/collections/{cid}/records", { id: Number(real.ids.rid) });
  const b = await call(mine, "POST", "/collections/{cid}/records", { id: Number(mine.ids.rid) });
  const same = a.status === b.status && a.text === b.text;
  if (!same) differing++;
  console.log(
    `${same ? "same" : "DIFF"}  POST /collections/{cid}/records${
      same ? "" : `\n        real ${a.status} ${a.text} local ${b.status} ${b.text}`
    }`,
  );
  const c = await call(real, "POST", "/collections/{cid}/collections", {
    id: Number(real.ids.cid2),
  });
  const e = await call(mine, "POST", "/collections/{cid}/collections", {
    id: Number(mine.ids.cid2),
  });
  probes++;
  const same2 = c.status === e.status && c.text === e.text;
  if (!same2) differing++;
  console.log(
    `${same2 ? "same" : "DIFF"}  POST /collections/{cid}/collections${
      same2 ? "" : `\n        real ${c.status} ${c.text} local ${e.status} ${e.text}`
    }`,
  );
}
await probe("GET", "/collections/{cid}");
await probe("GET", "/collections/{cid}/records");
await probe("GET", "/collections/{cid}/collections");
await probe("GET", "/records/{rid}/collections");
for (const t of ["json", "rdf", "qr", "ro-crate", "pdf"]) {
  await probe("GET", `/collections/{cid}/export/${t}`);
}
await probe("POST", "/templates", {
  identifier: `${ident}-t`,
  title: "T",
  type: "extras",
  data: [{ key: "v", type: "float", value: 1.0, unit: "V" }],
}, { keep: { tid: "id" }, values: ["data"] });
await probe("POST", "/templates", {
  identifier: `${ident}-tr`,
  title: "TR",
  type: "record",
  data: {},
}, {
  values: ["data"],
});
await probe("GET", "/templates/{tid}");
for (const t of ["json", "json-schema", "shacl"]) {
  await probe("GET", `/templates/{tid}/export/${t}`);
}
await probe("POST", "/groups", { identifier: `${ident}-g`, title: "G" }, { keep: { gid: "id" } });
await probe("GET", "/groups/{gid}");
await probe("POST", "/groups/{gid}/members", { user: { id: 2 }, role: { name: "member" } });
await probe("GET", "/groups/{gid}/members");
await probe("POST", "/records/{rid}/roles/groups", { group: { id: 0 }, role: { name: "member" } }, {
  values: ["code"],
});
{
  probes++;
  const a = await call(real, "POST", "/records/{rid}/roles/groups", {
    group: { id: Number(real.ids.gid) },
    role: { name: "member" },
  });
  const b = await call(mine, "POST", "/records/{rid}/roles/groups", {
    group: { id: Number(mine.ids.gid) },
    role: { name: "member" },
  });
  const same = a.status === b.status && a.text === b.text;
  if (!same) differing++;
  console.log(
    `${same ? "same" : "DIFF"}  POST /records/{rid}/roles/groups${
      same ? "" : `\n        real ${a.status} ${a.text} local ${b.status} ${b.text}`
    }`,
  );
}
await probe("GET", "/records/{rid}/roles/groups");
await probe("GET", "/groups/{gid}/records");

// Users and misc.
await probe("GET", "/users/me");
await probe("GET", "/users/2");
await probe("GET", "/users/local/bob");
await probe("GET", "/users/2/identities");
await probe("GET", "/users?filter=bob");
await probe("GET", "/users/999", undefined, { values: ["code", "description"] });
await probe("GET", "/roles");
await probe("GET", "/licenses?filter=CC-BY-4.0");
await probe("GET", "/tags");

// Trash.
await probe("DELETE", "/records/{rid2}");
await probe("GET", "/records/{rid2}", undefined, { values: ["code", "description"] });
await probe("GET", "/trash");
await probe("POST", "/records/{rid2}/restore", undefined, { values: ["state"] });
await probe("POST", "/records/{rid2}/restore", undefined, { values: ["code", "description"] });
await probe("DELETE", "/records/{rid2}");
await probe("POST", "/records/{rid2}/purge");
await probe("GET", "/trash");
await probe("DELETE", "/collections/{cid2}");
await probe("POST", "/collections/{cid2}/purge");

console.log(
  `real-server diff: ${probes} requests, ${probes - differing} alike, ${differing} differing`,
);
