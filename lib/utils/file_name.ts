/**
 * {@linkcode safeFileName}: the one sanitiser every path component from the server (record
 * identifiers, file names, export names, ZIP entries) goes through before it touches the local
 * file system.
 *
 * @module
 */

/** Options of {@linkcode safeFileName}. */
export interface SafeFileNameOptions {
  /**
   * Whose naming rules apply: `windows` also replaces `<>:"|?*`, trailing dots and spaces, and
   * prefixes reserved device names (`CON`, `NUL`, `COM1`, ...) with `_`.
   * @default {the current operating system}
   */
  platform?: "windows" | "posix" | undefined;
  /**
   * Longest name in UTF-8 bytes; longer names are shortened, keeping the extension.
   * @default {255}
   */
  maxBytes?: number | undefined;
  /** Text kept in front of the extension, after shortening (e.g. `_2` for a second copy). */
  suffix?: string | undefined;
}

/** Longest file name of common local file systems (ext4, APFS, NTFS), in UTF-8 bytes. */
export const MAX_FILE_NAME_BYTES = 255;

/** Longest extension kept when a name is shortened, in UTF-8 bytes. */
const MAX_EXTENSION_BYTES = 32;

const WINDOWS_RESERVED = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/**
 * Makes a name from the server safe as one path component: path separators, control
 * characters and bidirectional-text controls become `_`; `.`, `..` and the empty name become `_`;
 * on Windows the characters and device names Windows refuses are replaced too. Names longer than
 * `maxBytes` are shortened at a character boundary, keeping the extension (and `suffix`).
 *
 * @example Usage
 * ```ts
 * import { safeFileName } from "./file_name.ts";
 * console.log(safeFileName("../../etc/passwd")); // ".._.._etc_passwd"
 * console.log(safeFileName("..")); // "_"
 * console.log(safeFileName("con.txt", { platform: "windows" })); // "_con.txt"
 * console.log(safeFileName("report.pdf", { suffix: "_2" })); // "report_2.pdf"
 * ```
 *
 * @param name The name as the server sent it.
 * @param options Platform rules, length limit and suffix.
 * @returns A name that stays inside the directory it is joined to.
 */
export function safeFileName(name: string, options: SafeFileNameOptions = {}): string {
  const windows = (options.platform ?? (Deno.build.os === "windows" ? "windows" : "posix")) ===
    "windows";
  // deno-lint-ignore no-control-regex
  let cleaned = name.replace(/[\\/\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g, "_");
  if (windows) {
    // `:` would even write an alternate data stream; Windows drops trailing dots and spaces.
    cleaned = cleaned.replace(/[<>:"|?*]/g, "_").replace(/[. ]+$/, (end) => "_".repeat(end.length));
    const stem = cleaned.split(".")[0]!.trimEnd();
    if (WINDOWS_RESERVED.test(stem)) cleaned = `_${cleaned}`;
  }
  if (cleaned === "" || cleaned === "." || cleaned === "..") cleaned = "_";
  return fit(cleaned, options.suffix ?? "", options.maxBytes ?? MAX_FILE_NAME_BYTES);
}

function fit(name: string, suffix: string, maxBytes: number): string {
  const dot = name.lastIndexOf(".");
  const hasExt = dot > 0 && bytes(name.slice(dot)) <= MAX_EXTENSION_BYTES;
  const ext = hasExt ? name.slice(dot) : "";
  const stem = hasExt ? name.slice(0, dot) : name;
  const whole = `${stem}${suffix}${ext}`;
  if (bytes(whole) <= maxBytes) return whole;
  const room = Math.max(1, maxBytes - bytes(suffix) - bytes(ext));
  return `${cut(stem, room)}${suffix}${ext}`;
}

const encoder = new TextEncoder();

function bytes(text: string): number {
  return encoder.encode(text).byteLength;
}

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes, never splitting a character. */
function cut(text: string, maxBytes: number): string {
  let kept = "";
  let size = 0;
  for (const char of text) {
    size += bytes(char);
    if (size > maxBytes) break;
    kept += char;
  }
  return kept === "" ? "_" : kept;
}
