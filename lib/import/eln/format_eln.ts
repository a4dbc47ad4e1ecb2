/**
 * Text forms of an `.eln` import: the plan (what `--dry-run` prints) and the summary line.
 *
 * @module
 */

import type { ElnPlan } from "./plan.ts";

/** Options of {@linkcode formatElnPlan}. */
export interface FormatElnPlanOptions {
  /**
   * Whether the declared SHA-256 sums were checked against the archive's bytes (as
   * {@linkcode importEln} does before it returns, also in a dry run). Without it a declared sum
   * is shown as "SHA-256 declared, not checked". @default {false}
   */
  checksumsVerified?: boolean;
}

/**
 * The plan as lines: the collection, each record with its tags, extras and files (with sizes and
 * whether their SHA-256 was verified), the links, the warnings, and the summary.
 *
 * @example Usage
 * ```ts
 * import { formatElnPlan } from "./format_eln.ts";
 * const lines = formatElnPlan({
 *   root: "crate", repositoryExport: false, collection: undefined, links: [], warnings: [],
 *   records: [{ key: "./a/", title: "A", description: "", tags: ["x"], extras: [], files: [] }],
 *   totals: { records: 1, files: 0, bytes: 0, links: 0 },
 * });
 * console.log(lines[0]); // "Record 'A' (tags: x)"
 * console.log(lines.at(-1)); // formatElnSummary's line: "Would import 1 record, 0 files (0 bytes), 0 links"
 * ```
 *
 * @param plan The plan of {@linkcode importEln} with `dryRun`.
 */
export function formatElnPlan(plan: ElnPlan, options: FormatElnPlanOptions = {}): string[] {
  const lines: string[] = [];
  if (plan.collection) lines.push(`Collection '${plan.collection.title}'`);
  const titles = new Map(plan.records.map((r) => [r.key, r.title]));
  for (const record of plan.records) {
    const details = [
      record.tags.length > 0 ? `tags: ${record.tags.join(", ")}` : "",
      record.extras.length > 0 ? `${record.extras.length} extras` : "",
      record.license ? `license: ${record.license}` : "",
      record.type ? `type: ${record.type}` : "",
    ].filter((part) => part !== "");
    lines.push(`Record '${record.title}'${details.length ? ` (${details.join("; ")})` : ""}`);
    for (const file of record.files) {
      const checked = file.sha256 === undefined
        ? ""
        : options.checksumsVerified === true
        ? ", SHA-256 verified"
        : ", SHA-256 declared, not checked";
      lines.push(`  file '${file.name}' (${file.size} bytes${checked})`);
    }
  }
  for (const link of plan.links) {
    lines.push(`Link '${titles.get(link.from)}' -> '${titles.get(link.to)}' (${link.name})`);
  }
  for (const warning of plan.warnings) lines.push(`Note: ${warning}`);
  lines.push(formatElnSummary(plan.totals, true, plan.collection !== undefined));
  return lines;
}

/**
 * The summary line of an import: records, files, bytes, links ({@linkcode formatElnPlan} ends
 * with it).
 *
 * @param collection Whether a collection is created too.
 */
export function formatElnSummary(
  totals: { records: number; files: number; bytes: number; links: number },
  dryRun: boolean,
  collection = false,
): string {
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  return `${dryRun ? "Would import" : "Imported"} ${count(totals.records, "record")}, ${
    count(totals.files, "file")
  } (${totals.bytes} bytes), ${count(totals.links, "link")}${
    collection ? `, in ${dryRun ? "a new" : "one"} collection` : ""
  }`;
}
