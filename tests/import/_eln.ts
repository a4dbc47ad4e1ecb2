// Shared helpers of the ELN import tests: what the server holds after an import (records with
// their tags, extras, files with the SHA-256 of their downloaded bytes, links), and writing
// archives with zip.js.
import { fileURLToPath } from "node:url";
import { createHash } from "node:crypto";
import { BlobReader, BlobWriter, Uint8ArrayWriter, ZipReader, ZipWriter } from "@zip.js/zip.js";
import type { Extra } from "../../lib/http/protocol.ts";
import type { ElnImportResult } from "../../lib/import/mod.ts";
import type { RepoManager } from "../../lib/manager/repo_manager.ts";

export const ELN_CORPUS = fileURLToPath(new URL("../../../shared/corpus/eln/", import.meta.url));

/** A record as the server holds it, reduced to what an import sets. */
export interface RecordView {
  title: string;
  description: string;
  tags: string[];
  license: string | null;
  type: string | null;
  /** Extras as `path:type` lines (values left out; dates normalised by the server). */
  extras: string[];
  files: { name: string; size: number; sha256: string }[];
  links: { name: string; to: string }[];
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function extraPaths(extras: readonly Extra[], prefix = ""): string[] {
  return extras.flatMap((extra, index) => {
    const path = `${prefix}${extra.key ?? index}`;
    const nested = extra.type === "dict" || extra.type === "list";
    return [
      `${path}:${extra.type}`,
      ...(nested && Array.isArray(extra.value)
        ? extraPaths(extra.value as Extra[], `${path}.`)
        : []),
    ];
  });
}

/** Reads back every record an import created. */
export async function serverView(
  manager: RepoManager,
  result: ElnImportResult,
): Promise<{ collection: { title: string; records: number } | null; records: RecordView[] }> {
  const records: RecordView[] = [];
  for (const created of result.records) {
    const record = await manager.record({ id: created.id });
    const meta = await record.refresh();
    const files = [];
    for await (const file of record.files()) {
      const stream = await record.downloadFile(file.id);
      const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
      files.push({ name: file.name, size: file.size, sha256: sha256Hex(bytes) });
    }
    files.sort((a, b) => a.name.localeCompare(b.name));
    const links = [];
    for await (const link of record.recordLinks({ direction: "out" })) {
      links.push({ name: link.name, to: link.record_to?.title ?? "?" });
    }
    links.sort((a, b) => `${a.name}${a.to}`.localeCompare(`${b.name}${b.to}`));
    records.push({
      title: meta.title,
      description: meta.description ?? "",
      tags: meta.tags ?? [],
      license: meta.license ?? null,
      type: meta.type ?? null,
      extras: extraPaths(meta.extras ?? []),
      files,
      links,
    });
  }
  let collection = null;
  if (result.collection !== undefined) {
    const found = await manager.collection({ id: result.collection.id });
    const members = await Array.fromAsync(found.records({ per_page: 100 }));
    collection = { title: (await found.meta()).title, records: members.length };
  }
  return { collection, records };
}

/** SHA-256 of every file in an archive, by path below its root folder. */
export async function archiveHashes(path: string): Promise<Map<string, string>> {
  const reader = new ZipReader(new BlobReader(new Blob([await Deno.readFile(path)])), {
    useWebWorkers: false,
  });
  const hashes = new Map<string, string>();
  for (const entry of await reader.getEntries()) {
    if (entry.directory) continue;
    const bytes = await entry.getData!(new Uint8ArrayWriter());
    hashes.set(
      entry.filename.split("/").filter((s) => s !== "").slice(1).join("/"),
      sha256Hex(bytes),
    );
  }
  await reader.close();
  return hashes;
}

/** One entry of a generated archive. */
export interface TestEntry {
  name: string;
  content?: string | Uint8Array<ArrayBuffer>;
  /** Stored instead of deflated. */
  store?: boolean;
  /** Unix mode (e.g. `0o120777` for a symbolic link). */
  unixMode?: number;
  directory?: boolean;
}

/** Writes a zip archive with zip.js and returns its bytes. */
export async function zipBytes(entries: TestEntry[]): Promise<Uint8Array<ArrayBuffer>> {
  const writer = new ZipWriter(new BlobWriter("application/zip"), { useWebWorkers: false });
  for (const entry of entries) {
    const content = typeof entry.content === "string"
      ? new TextEncoder().encode(entry.content)
      : entry.content ?? new Uint8Array(0);
    await writer.add(
      entry.name,
      entry.directory ? undefined : new BlobReader(new Blob([content])),
      {
        ...(entry.store ? { level: 0 } : {}),
        ...(entry.unixMode !== undefined ? { unixMode: entry.unixMode } : {}),
        ...(entry.directory ? { directory: true } : {}),
      },
    );
  }
  const blob = await writer.close();
  return new Uint8Array(await blob.arrayBuffer());
}

/** A small valid crate: one dataset with one file (optionally with a wrong SHA-256). */
export function simpleCrate(
  root = "crate",
  /** `sha256: null` leaves the file's SHA-256 out of the crate. */
  options: { sha256?: string | null; content?: string; extra?: TestEntry[] } = {},
): TestEntry[] {
  const content = options.content ?? "hello";
  const metadata = {
    "@context": "https://w3id.org/ro/crate/1.1/context",
    "@graph": [
      {
        "@id": "ro-crate-metadata.json",
        "@type": "CreativeWork",
        about: { "@id": "./" },
      },
      { "@id": "./", "@type": "Dataset", hasPart: [{ "@id": "./exp/" }] },
      {
        "@id": "./exp/",
        "@type": "Dataset",
        name: "Experiment",
        keywords: "a, b",
        hasPart: [{ "@id": "./exp/data.txt" }],
      },
      {
        "@id": "./exp/data.txt",
        "@type": "File",
        name: "data.txt",
        ...(options.sha256 === null
          ? {}
          : { sha256: options.sha256 ?? sha256Hex(new TextEncoder().encode(content)) }),
      },
    ],
  };
  return [
    { name: `${root}/ro-crate-metadata.json`, content: JSON.stringify(metadata) },
    { name: `${root}/exp/data.txt`, content },
    ...(options.extra ?? []),
  ];
}

/** Writes bytes to a new temporary `.eln` file. */
export async function tempEln(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const path = await Deno.makeTempFile({ suffix: ".eln" });
  await Deno.writeFile(path, bytes);
  return path;
}
