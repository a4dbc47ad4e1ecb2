/**
 * Which files of a watched folder have settled: a file is stable once its size and modification
 * time were seen unchanged by two looks at least the settle time apart. The first look of a state
 * is stamped with the clock read after it; a file is due once the settle time has passed since,
 * and the watcher then looks again (clock read before that look) and sends it only when the state
 * is the same. So a look delayed by a busy machine never makes a file look older than it is.
 *
 * Only files not yet stored are held here; files stored are a name and a short key in `known`.
 *
 * @module
 */

/** A file's state as a look saw it: size and modification time. */
export interface FileState {
  /** Size in bytes. */
  size: number;
  /** Modification time in ms since the epoch (`undefined` where the file system has none). */
  mtime: number | undefined;
}

/** A file seen new or changed and not stored yet. */
export interface PendingFile extends FileState {
  /** Clock time after the look that first saw this state. */
  since: number;
  /** Whether the record may hold it already (a send that failed): compare before sending. */
  check: boolean;
  /** A failure that is not retried until the file changes. */
  failed: boolean;
  /** Whether the record has a file of this name (sending it replaces that file). */
  onRecord: boolean;
}

/** The short key of a file state in `known`. */
export function stateKey(state: FileState): string {
  return `${state.size}:${state.mtime ?? "-"}`;
}

/** What one look found about a file. */
export type LookResult = "known" | "new" | "same";

/** Settle bookkeeping of a watched folder; a file is in `known` or in `pending`, never both. */
export class SettleTracker {
  /** Stored or found equal on the record: name → state key. */
  readonly known: Map<string, string> = new Map();
  /** Seen new or changed, not stored yet. */
  readonly pending: Map<string, PendingFile> = new Map();
  readonly #settleMs: number;

  /**
   * @param settleMs How long a state must stay unchanged.
   */
  constructor(settleMs: number) {
    this.#settleMs = settleMs;
  }

  /**
   * Records a look at a file: `known` when the record holds this state, `new` when the state is
   * new (the settle time starts at `after`), `same` when it is unchanged since an earlier look.
   *
   * @param name The file's name in the record.
   * @param after Clock time read after the look.
   */
  look(name: string, state: FileState, after: number): LookResult {
    if (this.known.get(name) === stateKey(state)) {
      this.pending.delete(name);
      return "known";
    }
    const entry = this.pending.get(name);
    if (entry !== undefined && entry.size === state.size && entry.mtime === state.mtime) {
      return "same";
    }
    this.pending.set(name, {
      size: state.size,
      mtime: state.mtime,
      since: after,
      check: entry?.check ?? false,
      failed: false,
      onRecord: entry?.onRecord ?? this.known.has(name),
    });
    // A file is in one of the two maps: their sizes add up to the files watched.
    this.known.delete(name);
    return "new";
  }

  /** Forgets a file that is gone from the folder (the record keeps its copy). */
  forget(name: string): boolean {
    this.known.delete(name);
    return this.pending.delete(name);
  }

  /** Marks a file stored in the state it had. */
  stored(name: string, state: FileState): void {
    this.pending.delete(name);
    this.known.set(name, stateKey(state));
  }

  /**
   * The files due for their second look at clock time `now`, in name order.
   *
   * @returns Names of the due files not marked failed.
   */
  due(now: number): string[] {
    const names: string[] = [];
    for (const [name, entry] of this.pending) {
      if (!entry.failed && now - entry.since >= this.#settleMs) names.push(name);
    }
    return names.sort();
  }

  /**
   * Whether a file looked at again at clock time `before` (read before the look) in `state` has
   * settled: unchanged since a look at least the settle time earlier.
   *
   * @param state What the new look saw.
   * @param before Clock time read before the new look.
   * @returns `true` when it may be sent.
   */
  isSettled(name: string, state: FileState, before: number): boolean {
    const entry = this.pending.get(name);
    return entry !== undefined && entry.size === state.size && entry.mtime === state.mtime &&
      before - entry.since >= this.#settleMs;
  }

  /**
   * When the next pending file settles (clock time), or `undefined` when none waits.
   */
  nextSettle(): number | undefined {
    let next: number | undefined;
    for (const entry of this.pending.values()) {
      if (entry.failed) continue;
      const at = entry.since + this.#settleMs;
      if (next === undefined || at < next) next = at;
    }
    return next;
  }
}
