/**
 * Four MD5 streams at once, one per 32-bit lane of WebAssembly SIMD (`i32x4`): on one core about
 * three times the throughput of one `node:crypto` stream (4 × 10 MB: 22 ms against 71 ms here). Used for
 * the per-part (composite) checksum, whose 10 MB parts are independent. The module is built here
 * (about 5 KB, no file to load, no permission); where WebAssembly SIMD is missing,
 * {@linkcode Md5Lanes.create} returns `undefined` and callers hash one stream at a time.
 *
 * @module
 */

import { hex } from "../utils/_hex.ts";

const INIT = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];
const SHIFTS = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];

/** The module's function: MD5 blocks at four addresses, the states at `state`. */
type Md5x4 = (
  p0: number,
  p1: number,
  p2: number,
  p3: number,
  blocks: number,
  state: number,
) => void;

/** Whether lanes can be made here, once tried ({@linkcode Md5Lanes.available}). */
let available: boolean | undefined;

/** Four equal-length MD5 streams hashed together in WebAssembly memory. */
export class Md5Lanes {
  /** The (shared) memory holding the lanes, and where this bank of four lanes starts in it. */
  readonly memory: WebAssembly.Memory;
  readonly base: number;
  /** The largest part a lane holds. */
  readonly laneBytes: number;
  #run: Md5x4;
  #stride: number;
  #state: number;

  private constructor(
    module: WebAssembly.Module,
    memory: WebAssembly.Memory,
    laneBytes: number,
    base: number,
  ) {
    const instance = new WebAssembly.Instance(module, { env: { memory } });
    this.#run = (instance.exports as { md5x4: Md5x4 }).md5x4;
    this.memory = memory;
    this.base = base;
    this.laneBytes = laneBytes;
    this.#stride = stride(laneBytes);
    this.#state = base + 4 * this.#stride;
  }

  /**
   * Lanes for parts of at most `laneBytes` bytes (memory: four of them), or `undefined` where
   * WebAssembly SIMD is not available.
   *
   * @example Usage
   * ```ts
   * import { Md5Lanes } from "./_md5_lanes.ts";
   * const lanes = Md5Lanes.create(64);
   * lanes?.lane(0).set(new TextEncoder().encode("abc"));
   * console.log(lanes?.digests(3)[0]); // 900150983cd24fb0d6963f7d28e17f72
   * ```
   *
   * @param laneBytes The largest part.
   * @returns The lanes, or `undefined`.
   */
  static create(laneBytes: number): Md5Lanes | undefined {
    return Md5Lanes.banks(laneBytes, 1)?.[0];
  }

  /**
   * Whether lanes can be made here (WebAssembly SIMD and shared memory are available), known
   * without building the module (a tiny one is validated instead: a download asks on its main
   * thread, while its worker builds the module).
   *
   * @example Usage
   * ```ts
   * import { Md5Lanes } from "./_md5_lanes.ts";
   * console.log(typeof Md5Lanes.available()); // "boolean"
   * ```
   *
   * @returns True when {@linkcode Md5Lanes.create} succeeds.
   */
  static available(): boolean {
    return available ??= simdAndSharedMemory();
  }

  /**
   * Builds the module now, if this thread has not yet: for a moment the thread would only wait
   * anyway (a download waiting for its worker's last digests, which it then hashes here).
   *
   * @example Usage
   * ```ts
   * import { Md5Lanes } from "./_md5_lanes.ts";
   * Md5Lanes.prepare();
   * ```
   */
  static prepare(): void {
    compiled();
  }

  /**
   * `count` banks of four lanes in one shared memory, which a worker can hash in place
   * ({@linkcode Md5Lanes.attach}), or `undefined` where WebAssembly SIMD (or shared memory) is
   * not available.
   *
   * @param laneBytes The largest part.
   * @param count How many banks.
   * @returns The banks, or `undefined`.
   */
  static banks(laneBytes: number, count: number): Md5Lanes[] | undefined {
    const module = compiled();
    if (module === undefined) return undefined;
    const size = bankBytes(laneBytes);
    const pages = Math.ceil((size * count) / 65_536);
    let memory: WebAssembly.Memory;
    try {
      memory = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
    } catch {
      return undefined;
    }
    return Array.from(
      { length: count },
      (_, bank) => new Md5Lanes(module, memory, laneBytes, bank * size),
    );
  }

  /**
   * The bank of four lanes at `base` of a memory made by {@linkcode Md5Lanes.banks} (in another
   * thread, say), or `undefined` where WebAssembly SIMD is not available.
   *
   * @param memory The shared memory.
   * @param laneBytes The largest part, as given to `banks`.
   * @param base The bank's {@linkcode Md5Lanes.base}.
   * @returns The bank, or `undefined`.
   */
  static attach(memory: WebAssembly.Memory, laneBytes: number, base: number): Md5Lanes | undefined {
    const module = compiled();
    return module && new Md5Lanes(module, memory, laneBytes, base);
  }

  /**
   * The memory of one lane, to copy a part's data into (valid until the next call of
   * {@linkcode Md5Lanes.digests}, which writes padding after the data).
   *
   * @param lane 0 to 3.
   * @returns A view of `laneBytes` bytes.
   */
  lane(lane: number): Uint8Array {
    return new Uint8Array(this.memory.buffer, this.base + lane * this.#stride, this.laneBytes);
  }

  /**
   * The MD5 of the first `length` bytes of each of the four lanes.
   *
   * @param length Bytes per lane (at most `laneBytes`).
   * @returns The four digests (hex), in lane order.
   */
  digests(length: number): string[] {
    this.reset();
    return this.finish(length, 0);
  }

  /** Starts four new streams: the state goes back to MD5's initial values. */
  reset(): void {
    const view = new DataView(this.memory.buffer);
    for (let lane = 0; lane < 4; lane++) {
      for (let word = 0; word < 4; word++) {
        view.setUint32(this.#state + word * 16 + lane * 4, INIT[word]!, true);
      }
    }
  }

  /**
   * Hashes `count` 64-byte blocks of each lane, from block `from` on, into the running state (the
   * data must be in place; blocks are hashed once each, in order, before {@linkcode finish}).
   *
   * @param from The first block.
   * @param count How many blocks.
   */
  hash(from: number, count: number): void {
    if (count <= 0) return;
    const s = this.#stride;
    const at = this.base + from * 64;
    this.#run(at, s + at, 2 * s + at, 3 * s + at, count, this.#state);
  }

  /**
   * Pads each lane after `length` bytes and hashes its blocks from `from` to the end: the four
   * digests of streams whose blocks before `from` went through {@linkcode hash}.
   *
   * @param length Bytes per lane (at most `laneBytes`).
   * @param from Blocks already hashed (at most `length / 64`).
   * @param total The streams' whole length, when blocks hashed before were read into the lanes
   * in earlier rounds (the lanes then hold the streams' last `length` bytes).
   * @returns The four digests (hex), in lane order.
   */
  finish(length: number, from: number, total: number = length): string[] {
    const bytes = new Uint8Array(this.memory.buffer);
    const view = new DataView(this.memory.buffer);
    const tail = length % 64;
    const blocks = (length - tail) / 64 + (tail < 56 ? 1 : 2);
    for (let lane = 0; lane < 4; lane++) {
      const start = this.base + lane * this.#stride;
      const end = start + blocks * 64;
      bytes.fill(0, start + length, end);
      bytes[start + length] = 0x80;
      view.setUint32(end - 8, (total * 8) >>> 0, true);
      view.setUint32(end - 4, Math.floor(total / 0x20000000), true);
    }
    this.hash(from, blocks - from);
    // A lane's four state words, lane-wise at word × 16 + lane × 4, are its digest's bytes.
    return [0, 1, 2, 3].map((lane) =>
      [0, 1, 2, 3].map((word) => {
        const at = this.#state + word * 16 + lane * 4;
        return hex(bytes.subarray(at, at + 4));
      }).join("")
    );
  }
}

/** The largest input {@linkcode md5Small} hashes. */
const SMALL_BYTES = 64 * 1024;
/** The lanes of {@linkcode md5Small} on this thread, made on first use (`null`: no SIMD). */
let small: Md5Lanes | null | undefined;

/**
 * The MD5 of a small input (at most 64 KiB) in one lane, without `node:crypto` (which costs
 * start-up time to load); `undefined` for larger inputs or where WebAssembly SIMD is missing.
 *
 * @example Usage
 * ```ts
 * import { md5Small } from "./_md5_lanes.ts";
 * console.log(md5Small(new TextEncoder().encode("abc"))); // 900150983cd24fb0d6963f7d28e17f72
 * ```
 *
 * @param data The bytes.
 * @returns The digest (hex), or `undefined`.
 */
export function md5Small(data: Uint8Array): string | undefined {
  if (data.byteLength > SMALL_BYTES) return undefined;
  if (small === undefined) small = Md5Lanes.create(SMALL_BYTES) ?? null;
  if (small === null) return undefined;
  small.lane(0).set(data);
  return small.digests(data.byteLength)[0];
}

/**
 * Whether this runtime has shared WebAssembly memory and validates a module that imports one and
 * uses a SIMD instruction (the features of {@linkcode md5x4Module}).
 */
function simdAndSharedMemory(): boolean {
  try {
    new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
  } catch {
    return false;
  }
  // (func (drop (i32x4.splat (i32.const 0)))), with env.memory imported as a shared memory.
  const body = [0x00, 0x41, 0x00, 0xfd, 0x11, 0x1a, 0x0b];
  return WebAssembly.validate(
    new Uint8Array([
      ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
      ...section(1, vector([[0x60, 0x00, 0x00]])),
      ...section(2, vector([[...name("env"), ...name("memory"), 0x02, 0x03, 1, 1]])),
      ...section(3, vector([[0]])),
      ...section(10, vector([[...uleb(body.length), ...body]])),
    ]),
  );
}

/** Bytes between the starts of two lanes: a part and room for its padding blocks. */
function stride(laneBytes: number): number {
  return Math.ceil((laneBytes + 128) / 64) * 64;
}

/** Bytes of a bank: four lanes and the four states. */
function bankBytes(laneBytes: number): number {
  return 4 * stride(laneBytes) + 64;
}

let module: WebAssembly.Module | null | undefined;

function compiled(): WebAssembly.Module | undefined {
  if (module === undefined) {
    const bytes = md5x4Module();
    module = WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
  }
  return module ?? undefined;
}

/**
 * The WebAssembly module: one exported function `md5x4(p0, p1, p2, p3, blocks, state)` that runs
 * the MD5 compression over `blocks` 64-byte blocks at each of four addresses, the four states kept
 * lane-wise at `state` (A of the four lanes, then B, C, D), in the shared memory it imports
 * (`env.memory`).
 */
function md5x4Module(): Uint8Array<ArrayBuffer> {
  const code: number[] = [];
  const op = (...bytes: number[]) => code.push(...bytes);
  const simd = (opcode: number, ...rest: number[]) => op(0xfd, ...uleb(opcode), ...rest);
  const get = (local: number) => op(0x20, ...uleb(local));
  const set = (local: number) => op(0x21, ...uleb(local));
  const tee = (local: number) => op(0x22, ...uleb(local));
  const i32 = (value: number) => op(0x41, ...sleb(value | 0));
  const splat = (value: number) => {
    const lanes = new Uint8Array(16);
    const view = new DataView(lanes.buffer);
    for (let lane = 0; lane < 4; lane++) view.setUint32(lane * 4, value >>> 0, true);
    simd(0x0c, ...lanes);
  };
  // Parameters 0–3 the lanes' addresses, 4 the block count, 5 the state's address; v128 locals:
  // the state (6–9), the working registers (10–13), the message words (14–29), a scratch (30).
  const [blocks, state, sum, work, words, scratch] = [4, 5, 6, 10, 14, 30];
  const lanes = [0, 1, 2, 3];
  for (let i = 0; i < 4; i++) {
    get(state);
    simd(0x00, 4, ...uleb(i * 16)); // v128.load
    set(sum + i);
  }
  op(0x02, 0x40, 0x03, 0x40); // block, loop
  get(blocks);
  op(0x45, 0x0d, 1); // leave when no block is left: i32.eqz, br_if 1
  for (let word = 0; word < 16; word++) {
    for (const lane of lanes) {
      get(lane);
      op(0x28, 2, ...uleb(word * 4)); // i32.load
      if (lane === 0) simd(0x11); // i32x4.splat
      else simd(0x1c, lane); // i32x4.replace_lane
    }
    set(words + word);
  }
  for (let i = 0; i < 4; i++) {
    get(sum + i);
    set(work + i);
  }
  let [a, b, c, d] = [work, work + 1, work + 2, work + 3];
  const [AND, ANDNOT, NOT, OR, XOR, ADD, SHL, SHR] = [
    0x4e,
    0x4f,
    0x4d,
    0x50,
    0x51,
    0xae,
    0xab,
    0xad,
  ];
  // Each step depends on the one before through b only, so the expressions keep b late: what
  // does not need it (a + K + M, and the parts of F without b) is computed off that chain, which
  // is then F's last one or two operations, one add, the rotation and the add of b. The SIMD unit
  // waits on that chain, not on the number of operations (4 × 10 MB: 30 ms with F first).
  for (let step = 0; step < 64; step++) {
    const round = step >> 4;
    const word = [step, 5 * step + 1, 3 * step + 5, 7 * step][round]! % 16;
    get(a); // a + K[step] + M[word]
    splat(Math.floor(Math.abs(Math.sin(step + 1)) * 2 ** 32));
    simd(ADD);
    get(words + word);
    simd(ADD);
    if (round === 0) {
      for (const register of [d, b, c, d]) get(register); // (b & c) | (~b & d) = d ^ (b & (c ^ d))
      simd(XOR);
      simd(AND);
      simd(XOR);
    } else if (round === 1) {
      // (b & d) | (c & ~d): the two have no bit in common, so it is their sum, and c & ~d joins
      // the sum above (off the chain).
      for (const register of [c, d]) get(register);
      simd(ANDNOT);
      simd(ADD);
      for (const register of [b, d]) get(register);
      simd(AND);
    } else if (round === 2) {
      for (const register of [b, c, d]) get(register); // b ^ (c ^ d)
      simd(XOR);
      simd(XOR);
    } else {
      for (const register of [c, b, d]) get(register); // c ^ (b | ~d)
      simd(NOT);
      simd(OR);
      simd(XOR);
    }
    // + F, rotated left, + b: the new b, into the register a no longer needs.
    simd(ADD);
    const shift = SHIFTS[round * 4 + (step % 4)]!;
    tee(scratch);
    i32(shift);
    simd(SHL);
    get(scratch);
    i32(32 - shift);
    simd(SHR);
    simd(OR);
    get(b);
    simd(ADD);
    set(a);
    [a, b, c, d] = [d, a, b, c];
  }
  const result = [a, b, c, d];
  for (let i = 0; i < 4; i++) {
    get(sum + i);
    get(result[i]!);
    simd(0xae); // i32x4.add
    set(sum + i);
  }
  for (const lane of lanes) {
    get(lane);
    i32(64);
    op(0x6a); // i32.add
    set(lane);
  }
  get(blocks);
  i32(1);
  op(0x6b); // i32.sub
  set(blocks);
  op(0x0c, 0, 0x0b, 0x0b); // br 0, end loop, end block
  for (let i = 0; i < 4; i++) {
    get(state);
    get(sum + i);
    simd(0x0b, 4, ...uleb(i * 16)); // v128.store
  }
  op(0x0b);
  const body = [...vector([[...uleb(25), 0x7b]]), ...code];
  const i32Param = [0x7f];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector([[0x60, ...vector(Array(6).fill(i32Param)), 0x00]])),
    // A shared memory of at least one page, at most 4 GiB.
    ...section(2, vector([[...name("env"), ...name("memory"), 0x02, 0x03, 1, ...uleb(65_536)]])),
    ...section(3, vector([[0]])),
    ...section(7, vector([[...name("md5x4"), 0x00, 0]])),
    ...section(10, vector([[...uleb(body.length), ...body]])),
  ]);
}

function uleb(value: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (value !== 0);
  return bytes;
}

function sleb(value: number): number[] {
  const bytes: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && !(byte & 0x40)) || (value === -1 && byte & 0x40)) return [...bytes, byte];
    bytes.push(byte | 0x80);
  }
}

function vector(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

function name(text: string): number[] {
  const bytes = new TextEncoder().encode(text);
  return [...uleb(bytes.length), ...bytes];
}
