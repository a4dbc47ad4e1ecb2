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

import type { RepoConfig } from "./types.ts";

/**
 * Replaces `user:password@` (or `token@`) in a host URL with `***@`, and its query and fragment
 * (`?token=…`, `#…`) with `?***` and `#***`; the rest stays as written.
 *
 * @example Usage
 * ```ts
 * import { maskHost } from "./mask.ts";
 * console.log(maskHost("https://u:p@repo.example:8443/sub")); // "https://***@repo.example:8443/sub"
 * console.log(maskHost("https://repo.example/?token=pat_x#y")); // "https://repo.example/?***#***"
 * ```
 *
 * @param host The host as written in the config file.
 * @returns The host without credentials, query or fragment.
 */
export function maskHost(host: string): string {
  return host
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, "$1***@")
    .replace(/\?[^#]*/, "?***")
    .replace(/#[^]*$/, "#***");
}

/**
 * Tells whether a setting that is no token (a host, a path, an instance name) holds one: it
 * contains one of the known tokens or starts with `pat_`. Stricter than
 * {@linkcode looksLikeToken}, so that a long host or path is never mistaken for a token.
 *
 * @example Usage
 * ```ts
 * import { holdsToken } from "./mask.ts";
 * console.log(holdsToken("pat_0123456789abcdef")); // true
 * console.log(holdsToken("https://repo2.example.org/sub2024")); // false
 * console.log(holdsToken("https://repo.example/?t=secret123", ["secret123"])); // true
 * ```
 *
 * @param value The setting's value.
 * @param known Tokens of the config file (and the one in use).
 * @returns Whether the value must not be shown.
 */
export function holdsToken(value: string, known: readonly string[] = []): boolean {
  const trimmed = value.trim();
  return /^pat_/i.test(trimmed) || known.some((pat) => pat.length >= 8 && trimmed.includes(pat));
}

/** What is shown instead of a value that holds a token. */
export const TOKEN_NOT_SHOWN = "(looks like a token, not shown)";

/**
 * A host as it may be shown: {@linkcode maskHost}, or {@linkcode TOKEN_NOT_SHOWN} when what is
 * left still holds a token (one pasted as the host, or in its path).
 *
 * @example Usage
 * ```ts
 * import { shownHost } from "./mask.ts";
 * console.log(shownHost("pat_0123456789abcdef")); // "(looks like a token, not shown)"
 * console.log(shownHost("https://u:p@repo.example")); // "https://***@repo.example"
 * ```
 *
 * @param host The host as written.
 * @param known Tokens of the config file.
 * @returns The host to show.
 */
export function shownHost(host: string, known: readonly string[] = []): string {
  const masked = maskHost(host);
  return holdsToken(masked, known) ? TOKEN_NOT_SHOWN : masked;
}

/**
 * An instance name as it may be shown: the name, or {@linkcode TOKEN_NOT_SHOWN} when it holds a
 * token (`[pat_…]`).
 *
 * @example Usage
 * ```ts
 * import { shownName } from "./mask.ts";
 * console.log(shownName("main"), shownName("pat_0123456789")); // "main" "(looks like a token, not shown)"
 * ```
 *
 * @param name The instance name.
 * @param known Tokens of the config file.
 * @returns The name to show.
 */
export function shownName(name: string, known: readonly string[] = []): string {
  return holdsToken(name, known) ? TOKEN_NOT_SHOWN : name;
}

/**
 * The tokens written in a config file, for {@linkcode holdsToken} and friends.
 *
 * @example Usage
 * ```ts
 * import { configTokens } from "./mask.ts";
 * const instances = new Map([["a", { pat: "pat_x", extra: {} }]]);
 * console.log(configTokens({ global: { extra: {} }, instances })); // ["pat_x"]
 * ```
 *
 * @param config The parsed config.
 * @returns Its non-empty tokens.
 */
export function configTokens(config: RepoConfig): string[] {
  return [...config.instances.values()].flatMap((section) =>
    section.pat !== undefined && section.pat.trim() !== "" ? [section.pat.trim()] : []
  );
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
