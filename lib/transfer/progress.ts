/**
 * Progress reporting for transfers: a pass-through stream that counts the bytes flowing through
 * it and reports them to a callback. Nothing is printed; the caller decides how to show progress.
 *
 * @module
 */

/** State of a transfer reported to a progress callback. */
export interface Progress {
  /** Bytes transferred so far. */
  bytes: number;
  /** Bytes expected in total, when known. */
  total: number | undefined;
  /**
   * Bytes that were already on the server when this run started (a resumed upload); they are
   * included in `bytes`, so `bytes - resumed` is what this run sent.
   */
  resumed?: number;
}

/** Receives progress reports; called after each piece of data. */
export type ProgressCallback = (progress: Progress) => void;

/**
 * A pass-through stream that reports the number of bytes that went through it.
 *
 * @example Counting bytes through a pipe (no permission needed)
 * ```ts
 * import { ProgressStream } from "./progress.ts";
 * import assert from "node:assert";
 *
 * const seen: number[] = [];
 * const progress = new ProgressStream(({ bytes }) => seen.push(bytes), 5);
 * await new Response(new Blob(["hello"]).stream().pipeThrough(progress)).text();
 * assert.deepStrictEqual(seen, [5]);
 * assert.strictEqual(progress.bytes, 5);
 * ```
 */
export class ProgressStream extends TransformStream<Uint8Array, Uint8Array> {
  #bytes = 0;

  /**
   * Creates the stream: `onProgress` gets the running count after every chunk; `start` counts
   * bytes transferred before it (a resumed transfer).
   */
  constructor(onProgress: ProgressCallback, total?: number, start = 0) {
    super({
      transform: (chunk, controller) => {
        this.#bytes += chunk.byteLength;
        controller.enqueue(chunk);
        onProgress({ bytes: this.#bytes, total });
      },
    });
    this.#bytes = start;
  }

  /** Bytes that went through the stream so far (plus the start offset). */
  get bytes(): number {
    return this.#bytes;
  }
}
