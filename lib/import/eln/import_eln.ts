/**
 * `importEln`: imports an `.eln` file (an RO-Crate following the ELN file format) as records, with
 * their files, extras, tags and links, in a collection when the crate describes one.
 *
 * @module
 */

import { InputError } from "../../errors.ts";
import type { Transport } from "../../http/transport.ts";
import { METADATA_FILE, openElnArchive } from "./_archive.ts";
import { parseCrate } from "./_crate.ts";
import { type ElnCreated, executePlan } from "./_execute.ts";
import type { ElnProgress } from "./errors.ts";
import { DEFAULT_ELN_LIMITS, type ElnLimits } from "./limits.ts";
import { planEln, repositoryExportPaths } from "./_plan.ts";
import { verifyChecksums } from "./_verify.ts";
import type { ElnPlan } from "./plan.ts";

export type { ElnCreated } from "./_execute.ts";

/** Options of {@linkcode importEln}. */
export interface ElnImportOptions {
  /** Only plan: read and check the archive, return the plan, send nothing. @default {false} */
  dryRun?: boolean | undefined;
  /**
   * Cancels the import; what it created so far is deleted again and purged from the trash. The
   * rollback's requests go through the manager's transport: a signal that also cancels the
   * manager (its own `signal` option) cancels them too.
   */
  signal?: AbortSignal | undefined;
  /** Receives progress after each created entity and while files are sent. */
  onProgress?: ((progress: ElnProgress) => void) | undefined;
  /**
   * Chunks of a large file sent at once. The archive is read sequentially, so more chunks in
   * flight mostly cost memory (10 MB each, plus the copy `fetch` makes). @default {2}
   */
  concurrency?: number | undefined;
  /** Limits the archive must keep (see {@linkcode DEFAULT_ELN_LIMITS}). */
  limits?: Partial<ElnLimits> | undefined;
}

/** What {@linkcode importEln} did (or, with `dryRun`, would do). */
export interface ElnImportResult {
  /** The plan: records, files with sizes, links, collection, warnings. */
  plan: ElnPlan;
  /** Whether this was a dry run (nothing created). */
  dryRun: boolean;
  /** The created collection, if any. */
  collection: ElnCreated | undefined;
  /** The created records in creation order. */
  records: ElnCreated[];
  /** Counts of what was created (with `dryRun`: what would be). */
  totals: { records: number; files: number; bytes: number; links: number };
  /**
   * Files whose bytes were hashed and matched the SHA-256 the crate declares, before anything
   * was sent (also with `dryRun`). Files without a declared SHA-256 are not counted.
   */
  checksumsVerified: number;
}

/**
 * Imports an `.eln` file. The archive is checked before anything is created: exactly one root
 * folder holding `ro-crate-metadata.json`, no entry outside it (`..`, absolute paths, drive
 * letters, backslashes), no symbolic links, decompressed sizes and ratios within `limits` (also
 * enforced while reading). Each dataset listed in the root's `hasPart` becomes a record (title,
 * description, `keywords` as tags, `variableMeasured` as extras); its files are streamed from
 * the archive into the upload (never held whole in memory, never extracted). Every file with a
 * SHA-256 in the crate is hashed in a pre-pass before anything is created, so a mismatch is
 * refused with nothing created (also in a dry run), and hashed again while it is uploaded.
 * The repository's own exports are recognised: their JSON export sets extras, license, type and
 * links and is not uploaded, nor is the RDF export. Links follow `hasPart` between records,
 * `mentions`, and the export's links; a collection is made for `genre: "collection"` (also
 * without records: a collection's export with no record gives just the collection) or several
 * records. If any step fails, everything this import created is
 * deleted again and purged from the trash (a rerun gets the same identifiers), and an
 * {@linkcode ElnImportError} names the failing entity.
 *
 * Permissions: read access to the file, network access to the server.
 *
 * @example Dry run
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { importEln } from "@repo/apy/import";
 * import { startServer } from "@repo/apy/testing";
 * import { BlobWriter, TextReader, ZipWriter } from "@zip.js/zip.js";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const crate = {
 *   "@context": "https://w3id.org/ro/crate/1.1/context",
 *   "@graph": [
 *     { "@id": "ro-crate-metadata.json", "@type": "CreativeWork", about: { "@id": "./" } },
 *     { "@id": "./", "@type": "Dataset", hasPart: [{ "@id": "./sample/" }] },
 *     { "@id": "./sample/", "@type": "Dataset", name: "Sample" },
 *   ],
 * };
 * const zip = new ZipWriter(new BlobWriter());
 * await zip.add("experiment/ro-crate-metadata.json", new TextReader(JSON.stringify(crate)));
 * const path = await Deno.makeTempFile({ suffix: ".eln" }); // --allow-read for it
 * await Deno.writeFile(path, (await zip.close()).stream());
 * const { plan } = await importEln(manager, path, { dryRun: true });
 * assert.deepStrictEqual(plan.records.map((record) => record.title), ["Sample"]);
 * await Deno.remove(path);
 * ```
 *
 * @throws {InputError} When the archive or its metadata is refused; nothing was created.
 * @throws {ElnImportError} When creating failed; what was created is deleted and purged.
 */
export async function importEln(
  target: { transport: Transport },
  path: string,
  options: ElnImportOptions = {},
): Promise<ElnImportResult> {
  const { dryRun = false, signal, onProgress, concurrency = 2 } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(
      `Cannot import as 'concurrency' must be a positive integer: got ${concurrency}`,
    );
  }
  const limits = { ...DEFAULT_ELN_LIMITS, ...options.limits };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(`Cannot import as the limit '${name}' must be a positive integer`);
    }
  }
  await using archive = await openElnArchive(path, limits);
  const crate = parseCrate(
    await archive.readText(archive.files.get(METADATA_FILE)!, limits.maxMetadataBytes),
  );
  const exports = new Map<string, unknown>();
  for (const exportPath of repositoryExportPaths(crate)) {
    const file = archive.files.get(exportPath);
    if (file === undefined) continue;
    try {
      exports.set(exportPath, JSON.parse(await archive.readText(file, limits.maxMetadataBytes)));
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
    }
  }
  const plan = planEln({ crate, root: archive.root, files: archive.files, exports });
  // A collection without records (genre `collection`) is imported as just the collection.
  if (plan.records.length === 0 && plan.collection === undefined) {
    throw new InputError(
      `The crate in '${path}' describes nothing to import: its root dataset lists no dataset and no file of the archive`,
    );
  }
  // Before the first request that creates anything (and in a dry run, which sends nothing).
  const checksumsVerified = await verifyChecksums(plan, archive, signal);
  const { totals } = plan;
  if (dryRun) {
    return { plan, dryRun, collection: undefined, records: [], totals, checksumsVerified };
  }
  const created = await executePlan(target.transport, plan, archive, {
    signal,
    onProgress,
    concurrency,
  });
  return { plan, dryRun, ...created, totals, checksumsVerified };
}
