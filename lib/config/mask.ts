/**
 * Keeping secrets out of what the config code prints: credentials in a host URL, and values that
 * look like a personal access token (pasted into the wrong key).
 *
 * @example Usage
 * ```ts
 * import { looksLikeToken, maskHost } from "./mask.ts";
 * console.log(maskHost("https://me:secret@repo.example")); // "https://***@repo.example"
 * console.log(looksLikeToken("pat_0123456789abcdef")); // true
 * ```
 *
 * @module
 */

/**
 * Replaces `user:password@` (or `token@`) in a host URL with `***@`; the rest stays as written.
 *
 * @example Usage
 * ```ts
 * import { maskHost } from "./mask.ts";
 * console.log(maskHost("https://u:p@repo.example:8443/sub")); // "https://***@repo.example:8443/sub"
 * ```
 *
 * @param host The host as written in the config file.
 * @returns The host without credentials.
 */
export function maskHost(host: string): string {
  return host.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, "$1***@");
}

/**
 * Tells whether a value looks like a personal access token: it contains one of the known tokens,
 * starts with `pat_`, or is a long run of letters and digits without spaces.
 *
 * @example Usage
 * ```ts
 * import { looksLikeToken } from "./mask.ts";
 * console.log(looksLikeToken("60"), looksLikeToken("my_instance")); // false false
 * console.log(looksLikeToken("x", ["pat_x"])); // false
 * ```
 *
 * @param value The value.
 * @param known Tokens of the config file.
 * @returns Whether the value must not be shown.
 */
export function looksLikeToken(value: string, known: readonly string[] = []): boolean {
  const trimmed = value.trim();
  if (known.some((pat) => pat.length >= 4 && trimmed.includes(pat))) return true;
  if (known.some((pat) => trimmed.length >= 8 && pat.includes(trimmed))) return true;
  if (/^pat_/i.test(trimmed)) return true;
  return /^[A-Za-z0-9_.~+/=-]{20,}$/.test(trimmed) && /\d/.test(trimmed) &&
    /[A-Za-z]/.test(trimmed);
}
