// Idle kept-alive connections of the copy-free HTTP/1.1 client (_raw_fetch.ts), per origin and
// route. A connection comes back here only after an answer read to its framed end (see
// docs/decisions.md, "Connection reuse in the copy-free client"). While idle, a read stays in
// flight on it, unreferenced (it keeps no process alive): when the server closes the connection
// or sends anything, the read settles and the connection is closed and forgotten; when the
// connection is taken again, the next answer's head read takes that read over.
import { type AnswerHead, headerValue } from "./_raw_answer.ts";
import type { ConnReader } from "./_conn_reader.ts";

/** A connection with its reader, as the pool keeps it. */
export interface PooledConn {
  conn: Deno.Conn;
  reader: ConnReader;
}

interface IdleEntry extends PooledConn {
  /** When it became idle (`performance.now()`). */
  since: number;
  /** The longest idle time after which it is not used again. */
  maxIdleMs: number;
}

/** Options of {@linkcode ConnPool}. */
export interface ConnPoolOptions {
  /** Idle connections kept per key at most. @default {16} */
  maxIdlePerKey?: number;
  /** A connection idle longer than this is closed instead of used. @default {4000} */
  maxIdleMs?: number;
}

/**
 * A bounded pool of idle connections, per key (origin and route). Closing it closes every idle
 * connection; a connection released after that is closed too.
 */
export class ConnPool {
  #idle = new Map<string, IdleEntry[]>();
  #closed = false;
  readonly #maxIdlePerKey: number;
  readonly #maxIdleMs: number;

  constructor(options: ConnPoolOptions = {}) {
    this.#maxIdlePerKey = options.maxIdlePerKey ?? 16;
    this.#maxIdleMs = options.maxIdleMs ?? 4000;
  }

  /** Idle connections held now (all keys). */
  get idle(): number {
    let count = 0;
    for (const list of this.#idle.values()) count += list.length;
    return count;
  }

  /**
   * Takes the most recently used idle connection of `key` that is still fit (not too old, not
   * closed by the server, nothing unsolicited buffered), closing those that are not.
   *
   * @param key The origin and route.
   * @returns The connection, referenced again, or undefined.
   */
  take(key: string): PooledConn | undefined {
    const list = this.#idle.get(key);
    if (list === undefined) return undefined;
    const now = performance.now();
    for (let entry = list.pop(); entry !== undefined; entry = list.pop()) {
      const { reader } = entry;
      if (now - entry.since <= entry.maxIdleMs && !reader.ended && reader.buffered === 0) {
        if (list.length === 0) this.#idle.delete(key);
        entry.conn.ref();
        return { conn: entry.conn, reader };
      }
      closeQuietly(entry.conn);
    }
    this.#idle.delete(key);
    return undefined;
  }

  /**
   * Keeps a connection whose last answer was read to its end, or closes it when the pool is
   * closed or full, or bytes beyond the answer are buffered.
   *
   * @param key The origin and route.
   * @param pooled The connection.
   * @param keepAliveMs The server's `Keep-Alive: timeout` in milliseconds, if it sent one.
   */
  put(key: string, pooled: PooledConn, keepAliveMs?: number): void {
    const list = this.#idle.get(key) ?? [];
    const maxIdleMs = keepAliveMs === undefined
      ? this.#maxIdleMs
      : Math.min(this.#maxIdleMs, keepAliveMs - 1000);
    if (
      this.#closed || list.length >= this.#maxIdlePerKey || pooled.reader.buffered > 0 ||
      pooled.reader.ended || maxIdleMs <= 0
    ) {
      closeQuietly(pooled.conn);
      return;
    }
    const entry: IdleEntry = { ...pooled, since: performance.now(), maxIdleMs };
    list.push(entry);
    this.#idle.set(key, list);
    // Settles when the server closes the connection or sends something while it is idle; the
    // entry is dropped then (unless it was taken meanwhile: the read is that request's now).
    pooled.reader.watch().then(() => this.#drop(key, entry), () => this.#drop(key, entry));
    pooled.conn.unref();
  }

  /** Closes every idle connection; connections released later are closed as well. */
  close(): void {
    this.#closed = true;
    for (const list of this.#idle.values()) {
      for (const entry of list) closeQuietly(entry.conn);
    }
    this.#idle.clear();
  }

  #drop(key: string, entry: IdleEntry): void {
    const list = this.#idle.get(key);
    const at = list?.indexOf(entry) ?? -1;
    if (list === undefined || at < 0) return;
    list.splice(at, 1);
    if (list.length === 0) this.#idle.delete(key);
    closeQuietly(entry.conn);
  }
}

/** Closes a connection that may be closed already. */
export function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch { /* already closed */ }
}

/**
 * The server's `Keep-Alive: timeout=N` in milliseconds, if it sent one.
 *
 * @param head The answer's head.
 * @returns The timeout, or undefined.
 */
export function keepAliveTimeoutMs(head: AnswerHead): number | undefined {
  const value = headerValue(head, "keep-alive");
  if (value === null) return undefined;
  const match = /(?:^|[,;\s])timeout\s*=\s*(\d{1,6})/i.exec(value);
  return match ? Number(match[1]) * 1000 : undefined;
}
