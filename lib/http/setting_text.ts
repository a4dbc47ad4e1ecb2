/**
 * Connection settings (host, token, paths, proxy) never carry control characters: a CR or LF in
 * a token or host would otherwise become part of the request head, and a NUL cuts a path short.
 * The check names the setting and where it came from, never the value.
 *
 * @module
 */

import { ConfigurationError } from "../errors.ts";

// C0 controls, DEL and C1 controls: none belongs in a URL, a token or a header value.
// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x1f\x7f-\x9f]/;

const CONTROL_NAMES: { [code: number]: string } = {
  0x00: "NUL",
  0x09: "tab",
  0x0a: "line feed (LF)",
  0x0d: "carriage return (CR)",
  0x7f: "DEL",
};

/**
 * Throws when `value` holds a control character (CR, LF, NUL, tab, DEL, …). The message names
 * the setting, where it came from and which character at which position, never the value.
 *
 * @example Usage
 * ```ts
 * import { checkSettingText } from "./setting_text.ts";
 * import { ConfigurationError } from "../errors.ts";
 * import assert from "node:assert";
 * assert.throws(
 *   () => checkSettingText("https://a.example\n", "the host", "given to RepoManager"),
 *   ConfigurationError,
 * );
 * ```
 *
 * @param value The setting's value.
 * @param setting What the setting is, for the message (`the personal access token`).
 * @param source Where it came from, for the message (`from the environment variable X`).
 * @throws {ConfigurationError} When the value holds a control character.
 */
export function checkSettingText(value: string, setting: string, source: string): void {
  const match = CONTROL.exec(value);
  if (match === null) return;
  const code = match[0].charCodeAt(0);
  const name = CONTROL_NAMES[code] ?? `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  throw new ConfigurationError(
    `${capitalise(setting)} ${source} contains a control character (${name} at position ` +
      `${match.index + 1}), which could change the requests sent: nothing was sent; write the ` +
      `value again without it (the value is not shown)`,
  );
}

/** The settings {@linkcode checkConnectionText} looks at (those of a transport). */
export interface SettingTexts {
  /** The host. */
  host?: string | undefined;
  /** The personal access token. */
  pat?: string | undefined;
  /** Path prefix of the API. */
  basePath?: string | undefined;
  /** Path of a CA bundle. */
  caBundle?: string | undefined;
  /** Hosts redirects may go to. */
  whitelist?: readonly string[] | undefined;
  /** Proxy URL. */
  proxy?: string | undefined;
}

/**
 * Checks every text of a set of connection settings with {@linkcode checkSettingText}.
 *
 * @example Usage
 * ```ts
 * import { checkConnectionText } from "./setting_text.ts";
 * checkConnectionText({ host: "https://repo.example", pat: "pat_x" }, "given to the transport");
 * ```
 *
 * @param settings The settings.
 * @param source Where they came from, for the message.
 * @throws {ConfigurationError} When one holds a control character.
 */
export function checkConnectionText(settings: SettingTexts, source: string): void {
  if (settings.host !== undefined) checkSettingText(settings.host, "the host", source);
  if (settings.pat !== undefined) {
    checkSettingText(settings.pat, "the personal access token", source);
  }
  if (settings.basePath !== undefined) {
    checkSettingText(settings.basePath, "the base path (base_path)", source);
  }
  if (settings.caBundle !== undefined) {
    checkSettingText(settings.caBundle, "the CA bundle (ca_bundle)", source);
  }
  if (settings.proxy !== undefined) checkSettingText(settings.proxy, "the proxy", source);
  for (const entry of settings.whitelist ?? []) {
    checkSettingText(entry, "a whitelist entry", source);
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
