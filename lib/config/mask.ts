/**
 * Keeping secrets out of what the config code prints: credentials in a host URL, and values that
 * look like a personal access token (pasted into the wrong key).
 *
 * @module
 */

import type { RepoConfig } from "./types.ts";

/**
 * Replaces `user:password@` (or `token@`) in a host URL with `***@`, and its query and fragment
 * (`?token=…`, `#…`) with `?***` and `#***`; the rest stays as written.
 * {@linkcode shownHost} shows the masking functions together.
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
 * {@linkcode shownHost} shows the masking functions together.
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
 * @example Masking what is shown
 * ```ts
 * import {
 *   configTokens,
 *   holdsToken,
 *   looksLikeToken,
 *   maskHost,
 *   shownHost,
 *   shownName,
 *   TOKEN_NOT_SHOWN,
 * } from "@repo/apy/config";
 * import assert from "node:assert";
 *
 * const instances = new Map([["main", { pat: "pat_0123456789", extra: {} }]]);
 * const known = configTokens({ global: { extra: {} }, instances }); // ["pat_0123456789"]
 * const masked = maskHost("https://u:p@repo.example/?t=x#y");
 * assert.strictEqual(masked, "https://***@repo.example/?***#***");
 * assert.strictEqual(shownHost("https://u:p@repo.example"), "https://***@repo.example");
 * assert.strictEqual(shownHost("https://repo.example/pat_0123456789", known), TOKEN_NOT_SHOWN);
 * assert.strictEqual(shownName("main", known), "main");
 * // holdsToken is strict (for a host, a path, a name); looksLikeToken also catches long runs.
 * assert.strictEqual(holdsToken("https://repo2.example.org/sub2024"), false);
 * assert.strictEqual(looksLikeToken("A0123456789abcdefghij"), true);
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
 * {@linkcode shownHost} shows the masking functions together.
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
 * {@linkcode shownHost} shows the masking functions together.
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
 * {@linkcode shownHost} shows the masking functions together.
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
