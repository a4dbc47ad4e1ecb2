// The one byte-count formatter: the CLI's sizes, rates and progress (`lib/cli/output.ts`
// re-exports it for `@repo/apy/cli/kit`) and the sizes in library error messages
// (`ResponseTooLargeError`). It lives here, in the lowest layer that needs it.

/** Options of {@linkcode formatBytes}. */
export interface FormatBytesOptions {
  /**
   * For a size inside a sentence: a whole number drops its `.0` (`1 MB`, not `1.0 MB`) and counts
   * below 1 kB say `bytes` (`512 bytes`, not `512 B`).
   *
   * @default {false}
   */
  prose?: boolean;
}

const UNITS = ["B", "kB", "MB", "GB", "TB"] as const;

/**
 * Formats a byte count in decimal units with one decimal, e.g. `20.0 MB` (`20 MB` with `prose`).
 *
 * @example Usage
 * ```ts
 * import { formatBytes } from "./format_bytes.ts";
 * console.log(formatBytes(20_000_000)); // "20.0 MB"
 * console.log(formatBytes(1_000_000, { prose: true })); // "1 MB"
 * console.log(formatBytes(512, { prose: true })); // "512 bytes"
 * ```
 *
 * @param bytes The count.
 * @param options `prose` for a size inside a sentence.
 * @returns The text.
 */
export function formatBytes(bytes: number, options: FormatBytesOptions = {}): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  if (options.prose !== true) return `${value.toFixed(unit === 0 ? 0 : 1)} ${UNITS[unit]}`;
  if (unit === 0) return `${bytes} bytes`;
  return `${value.toFixed(1).replace(/\.0$/, "")} ${UNITS[unit]}`;
}
