/**
 * The import plan of an `.eln` crate: the records, files, links and collection an import creates
 * (what `--dry-run` prints).
 *
 * @module
 */

import type { Extra } from "../../http/protocol.ts";

/** A file to upload, streamed from the archive. */
export interface ElnPlannedFile {
  /** Path below the archive's root folder. */
  path: string;
  /** Name of the file in the record. */
  name: string;
  /** Size in bytes. */
  size: number;
  /** SHA-256 declared by the crate, verified while the file is streamed. */
  sha256?: string;
  /**
   * MIME type declared by the crate (`encodingFormat`), when valid. Shown only: the import lets
   * the server detect the type, as the Python client does.
   */
  mimetype?: string;
  /** Description of the file. */
  description?: string;
}

/** A record to create. */
export interface ElnPlannedRecord {
  /** The crate's `@id` of the dataset (the key links refer to). */
  key: string;
  /** Title (whitespace normalised, at most 150 characters). */
  title: string;
  /** Description (at most 50,000 characters). */
  description: string;
  /** Tags from `keywords`. */
  tags: string[];
  /** Extras from `variableMeasured`, or from the repository's own JSON export. */
  extras: Extra[];
  /** License name (only from the repository's own JSON export). */
  license?: string | null;
  /** Record type (only from the repository's own JSON export). */
  type?: string | null;
  /** Files to upload. */
  files: ElnPlannedFile[];
}

/** A link to create between two planned records. */
export interface ElnPlannedLink {
  /** Key of the record the link starts at. */
  from: string;
  /** Key of the record it points to. */
  to: string;
  /** Name of the link. */
  name: string;
  /** IRI of a term for the link. */
  term: string | null;
}

/** Everything an import creates. */
export interface ElnPlan {
  /** The archive's root folder. */
  root: string;
  /** Whether the crate was exported by the repository itself (publisher `Kadi4Mat`). */
  repositoryExport: boolean;
  /** The collection holding the records, when the crate describes one. */
  collection: { title: string; description: string } | undefined;
  /** The records in creation order. */
  records: ElnPlannedRecord[];
  /** The links between records. */
  links: ElnPlannedLink[];
  /** What is left out and why (external files, files missing from the archive, …). */
  warnings: string[];
  /** Counts: records, files, bytes of the files, links. */
  totals: { records: number; files: number; bytes: number; links: number };
}
