/**
 * What the local server looks up per request about files and uploads, kept up to date instead of
 * found by scanning every file of the server: each record's files (oldest first) and active files
 * by name, each record's uploads, and the bytes each user holds against the quota (active files
 * they created and their uploads that have not ended).
 *
 * @module
 */
/** A stored file of a record. */
export interface StoredFile {
  id: string;
  recordId: number;
  name: string;
  description: string;
  mimetype: string;
  magicMimetype: string;
  size: number;
  checksum: string;
  path: string;
  state: "active" | "inactive" | "deleted";
  createdAt: string;
  lastModified: string;
  creatorId: number;
}

/** A stored chunk of a chunked upload. */
export interface Chunk {
  index: number;
  size: number;
  checksum: string;
  path: string;
}

/** An upload. */
export interface Upload {
  id: string;
  recordId: number;
  name: string;
  size: number;
  /** As given when the upload was made; null when not given (the real server sends null). */
  description: string | null;
  /** As given; null: guessed from the name (else sniffed) when the file is made. */
  mimetype: string | null;
  checksum: string | null;
  chunkCount: number;
  uploadType: "direct" | "chunked";
  state: "active" | "processing" | "inactive";
  createdAt: string;
  lastModified: string;
  creatorId: number;
  /** The file whose data this upload replaces. */
  fileId: string | null;
  chunks: Map<number, Chunk>;
  task: { state: string; fileId?: string; error?: string } | null;
  /** `taskError` fault to apply when merging. */
  taskError?: string;
}

/** Files and uploads of one record. */
interface RecordEntry {
  files: Map<string, StoredFile>;
  active: Map<string, StoredFile>;
  uploads: Map<string, Upload>;
}

const EMPTY: RecordEntry = { files: new Map(), active: new Map(), uploads: new Map() };

/** Bytes a file holds against its creator's quota. */
function fileBytes(file: StoredFile): number {
  return file.state === "active" ? file.size : 0;
}

/** Bytes an upload holds against its creator's quota. */
function uploadBytes(upload: Upload): number {
  return upload.state !== "inactive" ? upload.size : 0;
}

/** The index; {@linkcode State} calls it on every change of a file or an upload. */
export class FileIndex {
  #records: Map<number, RecordEntry> = new Map();
  #used: Map<number, number> = new Map();

  #entry(recordId: number): RecordEntry {
    let entry = this.#records.get(recordId);
    if (entry === undefined) {
      entry = { files: new Map(), active: new Map(), uploads: new Map() };
      this.#records.set(recordId, entry);
    }
    return entry;
  }

  #count(userId: number, bytes: number): void {
    if (bytes !== 0) this.#used.set(userId, (this.#used.get(userId) ?? 0) + bytes);
  }

  /** Indexes a new file. */
  addFile(file: StoredFile): void {
    const entry = this.#entry(file.recordId);
    entry.files.set(file.id, file);
    if (file.state === "active") entry.active.set(file.name, file);
    this.#count(file.creatorId, fileBytes(file));
  }

  /** Changes a file with `change` and re-indexes it (its name, state and size may change). */
  updateFile(file: StoredFile, change: () => void): void {
    const entry = this.#records.get(file.recordId);
    // A purged file (a task finishing after its record was purged) is no longer counted.
    if (entry?.files.get(file.id) !== file) return change();
    const active = entry.active;
    if (active.get(file.name) === file) active.delete(file.name);
    const before = fileBytes(file);
    change();
    if (file.state === "active") active.set(file.name, file);
    this.#count(file.creatorId, fileBytes(file) - before);
  }

  /** Forgets a file. */
  purgeFile(file: StoredFile): void {
    const entry = this.#entry(file.recordId);
    entry.files.delete(file.id);
    if (entry.active.get(file.name) === file) entry.active.delete(file.name);
    this.#count(file.creatorId, -fileBytes(file));
  }

  /** Indexes a new upload. */
  addUpload(upload: Upload): void {
    this.#entry(upload.recordId).uploads.set(upload.id, upload);
    this.#count(upload.creatorId, uploadBytes(upload));
  }

  /** Changes an upload with `change` (its state may change). */
  updateUpload(upload: Upload, change: () => void): void {
    // A purged upload (a merge finishing after its record was purged) is no longer counted.
    if (this.#records.get(upload.recordId)?.uploads.get(upload.id) !== upload) return change();
    const before = uploadBytes(upload);
    change();
    this.#count(upload.creatorId, uploadBytes(upload) - before);
  }

  /** Forgets an upload. */
  purgeUpload(upload: Upload): void {
    this.#entry(upload.recordId).uploads.delete(upload.id);
    this.#count(upload.creatorId, -uploadBytes(upload));
  }

  /** The files of a record, every state, oldest first. */
  filesOf(recordId: number): IterableIterator<StoredFile> {
    return (this.#records.get(recordId) ?? EMPTY).files.values();
  }

  /** The active file of a record with a name, if any. */
  activeFileNamed(recordId: number, name: string): StoredFile | undefined {
    return this.#records.get(recordId)?.active.get(name);
  }

  /** The uploads of a record, every state, oldest first. */
  uploadsOf(recordId: number): IterableIterator<Upload> {
    return (this.#records.get(recordId) ?? EMPTY).uploads.values();
  }

  /** Bytes a user holds against the quota. */
  usedBytes(userId: number): number {
    return this.#used.get(userId) ?? 0;
  }
}
