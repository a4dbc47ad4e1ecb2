// Reads from a connection for the copy-free client (_raw_fetch.ts, _raw_answer.ts): heads and
// lines from a small bounded buffer, body bytes into the caller's buffer; a read may stay in
// flight (an idle kept-alive connection's, or one a gathered piece did not wait for) and is taken
// over by the next reader.

/** The longest answer head (status line and headers) or chunk-size line read. */
const MAX_HEAD_BYTES = 64 * 1024;
/** Heads and lines are decoded without a stream, so one decoder serves every reader. */
const decoder = new TextDecoder();

/** Reads from a connection: lines from a small buffer, body bytes into the caller's buffer. */
export class ConnReader {
  #conn: Deno.Conn;
  #buffer = new Uint8Array(MAX_HEAD_BYTES);
  #start = 0;
  #end = 0;
  #ended = false;
  #received = 0;
  /** The read into the buffer in flight, if any (one at a time). */
  #pending: Promise<boolean> | undefined;

  constructor(conn: Deno.Conn) {
    this.#conn = conn;
  }

  /** Bytes read from the connection and not taken yet. */
  get buffered(): number {
    return this.#end - this.#start;
  }

  /** Bytes read from the connection so far (a reused connection: whether an answer began). */
  get received(): number {
    return this.#received;
  }

  /** Whether the connection ended (the peer closed it). */
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * Starts a read into the buffer (unless one is in flight) and returns it: on an idle kept-alive
   * connection it settles when the server closes the connection or sends anything; when the
   * connection is used again, the next answer's head read takes it over.
   *
   * @returns True when bytes arrived, false at the end; rejected when the read failed.
   */
  watch(): Promise<boolean> {
    return this.#fill();
  }

  /**
   * Takes `length` buffered bytes as a copy, when that many are buffered.
   *
   * @param length The count.
   * @returns The bytes, or undefined when fewer are buffered.
   */
  take(length: number): Uint8Array<ArrayBuffer> | undefined {
    if (this.#end - this.#start < length) return undefined;
    const bytes = this.#buffer.slice(this.#start, this.#start + length);
    this.#start += length;
    return bytes;
  }

  /**
   * Reads more into the buffer, or waits for the read in flight; false at the end. A read left
   * in flight by {@linkcode ConnReader.ready} is taken over by the next caller.
   */
  #fill(): Promise<boolean> {
    if (this.#pending === undefined) {
      const pending = this.#fillNow().finally(() => {
        if (this.#pending === pending) this.#pending = undefined;
      });
      pending.catch(() => {}); // its error reaches whoever waits for it next
      this.#pending = pending;
    }
    return this.#pending;
  }

  /** Reads more into the buffer (compacted first when full); false at the end. */
  async #fillNow(): Promise<boolean> {
    if (this.#ended) return false;
    if (this.#start === this.#end) this.#start = this.#end = 0;
    if (this.#end === this.#buffer.byteLength) {
      // The buffer holds the longest head allowed: full from its start, the head is too long.
      if (this.#start === 0) throw new TypeError("The answer's head is too long");
      this.#buffer.copyWithin(0, this.#start, this.#end);
      this.#end -= this.#start;
      this.#start = 0;
    }
    const read = await this.#conn.read(this.#buffer.subarray(this.#end));
    if (read === null) {
      this.#ended = true;
      return false;
    }
    this.#end += read;
    this.#received += read;
    return true;
  }

  /** Reads up to the next `separator` (CRLF or CRLFCRLF) and returns the text before it. */
  async #until(separator: "\r\n" | "\r\n\r\n", what: string): Promise<string> {
    // Bytes after #start known not to begin the separator (kept relative: #fill may compact).
    let scanned = 0;
    for (;;) {
      const at = indexOf(this.#buffer, this.#start + scanned, this.#end, separator);
      if (at >= 0) {
        const text = decoder.decode(this.#buffer.subarray(this.#start, at));
        this.#start = at + separator.length;
        return text;
      }
      scanned = Math.max(0, this.#end - this.#start - separator.length + 1);
      if (this.#end - this.#start > MAX_HEAD_BYTES) throw new TypeError(`${what} is too long`);
      if (!(await this.#fill())) throw new TypeError(`The connection closed within ${what}`);
    }
  }

  /** The answer's head: status line and header lines, without the empty line. */
  head(): Promise<string> {
    return this.#until("\r\n\r\n", "the answer's head");
  }

  /** One line (a chunk size or a trailer). */
  line(): Promise<string> {
    return this.#until("\r\n", "a line of the answer");
  }

  /**
   * Reads up to `view.byteLength` body bytes into `view`: bytes already buffered first, then
   * straight from the connection.
   *
   * @returns The count read, or null at the end of the connection.
   */
  async readInto(view: Uint8Array): Promise<number | null> {
    if (this.#end === this.#start && this.#pending !== undefined && !(await this.#fill())) {
      return null;
    }
    if (this.#end > this.#start) {
      const count = Math.min(view.byteLength, this.#end - this.#start);
      view.set(this.#buffer.subarray(this.#start, this.#start + count));
      this.#start += count;
      return count;
    }
    if (this.#ended) return null;
    const read = await this.#conn.read(view);
    if (read === null) this.#ended = true;
    else this.#received += read;
    return read;
  }

  /**
   * Whether more bytes are at hand within `ms`: `data` (buffered now), `end` (the connection
   * ended) or `wait` (none came; the read stays in flight for the next call).
   *
   * @param ms The longest wait.
   * @returns The state.
   */
  async ready(ms: number): Promise<"data" | "end" | "wait"> {
    if (this.#end > this.#start) return "data";
    if (this.#ended) return "end";
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<"wait">((resolve) => timer = setTimeout(() => resolve("wait"), ms));
    try {
      return await Promise.race([this.#fill().then((more) => more ? "data" : "end"), waited]);
    } finally {
      clearTimeout(timer);
    }
  }
}

function indexOf(data: Uint8Array, from: number, end: number, separator: string): number {
  const last = end - separator.length;
  // Jumps from CR to CR (a native search) instead of comparing at every byte.
  for (let i = data.indexOf(13, from); i >= 0 && i <= last; i = data.indexOf(13, i + 1)) {
    if (data[i + 1] !== 10) continue;
    if (separator.length === 2 || (data[i + 2] === 13 && data[i + 3] === 10)) return i;
  }
  return -1;
}
