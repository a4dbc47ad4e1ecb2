/**
 * Picking an instance table out of a parsed config file.
 *
 * @module
 */

import { ConfigurationError } from "../errors.ts";
import { configTokens, holdsToken, looksLikeToken, TOKEN_NOT_SHOWN } from "./mask.ts";
import { GLOBAL_SECTION } from "./parse.ts";
import type { InstanceSection, RepoConfig } from "./types.ts";

/** An instance table and its name. */
export interface SelectedInstance {
  /** The instance's name. */
  name: string;
  /** Its table. */
  section: InstanceSection;
}

/**
 * Returns the named instance, or the default one (`[global] default`) when no name is given.
 *
 * @example Usage
 * ```ts
 * import { parseConfig } from "./parse.ts";
 * import { selectInstance } from "./select.ts";
 * const config = parseConfig('[global]\ndefault = "a"\n[a]\nhost = "https://a.example"\n', "cfg");
 * console.log(selectInstance(config, "cfg").name); // "a"
 * ```
 *
 * @param config The parsed config.
 * @param path The file's path, for messages.
 * @param name Instance name; default: the default instance.
 * @returns The instance.
 * @throws {ConfigurationError} When there is no default or the instance is not defined (the
 * message lists the known ones).
 */
export function selectInstance(config: RepoConfig, path: string, name?: string): SelectedInstance {
  const selected = name ?? config.global.default;
  if (selected === undefined || selected === "") {
    throw new ConfigurationError(
      `No default instance in ${path}: add 'default = "<instance>"' under [${GLOBAL_SECTION}] ` +
        `(repo-apy config change-default-instance -I <instance>), or pass an instance`,
    );
  }
  const section = config.instances.get(selected);
  const pats = configTokens(config);
  if (section === undefined && looksLikeToken(selected, pats)) {
    throw new ConfigurationError(
      `The ${name === undefined ? "default instance" : "instance name"} in ${path} looks like a ` +
        `token (not shown): write an instance name there, for example 'default = "my_instance"' ` +
        `under [${GLOBAL_SECTION}], and the token as 'pat' in the instance's table`,
    );
  }
  if (section === undefined) {
    const known = [...config.instances.keys()];
    const list = known.length === 0
      ? "none"
      : known.map((entry) => holdsToken(entry, pats) ? TOKEN_NOT_SHOWN : `'${entry}'`).join(", ");
    throw new ConfigurationError(
      `The instance '${selected}' is not defined in ${path} (known instances: ${list}): ` +
        `use one of them or add it with 'repo-apy config add-instance -I ${selected}'`,
    );
  }
  return { name: selected, section };
}
