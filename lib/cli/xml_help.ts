/**
 * `--xmlhelp`: an XML description of a command, generated from the commander tree.
 *
 * @module
 */

import type { CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import {
  commandPath,
  isGroup,
  optionType,
  optionTypeDetails,
  parameterOptions,
  shortDescription,
  visibleCommands,
} from "./_tree.ts";

/**
 * Describes a command as XML: `<program>` for a command (its `<param>` options with the
 * attributes xmlhelpy writes: type, default, choices and `case_sensitive`, `required` when
 * required, `min`/`max` of a `long_range`, a token list's `separator`, `exists` of a path, and
 * the `relations` that exclude other options; and its `<arg>` arguments) or `<group>` for a group
 * (its options and its `<command>`/`<group>` children). Attribute values are escaped.
 *
 * @example Usage
 * ```ts
 * import { Command } from "@commander-js/extra-typings";
 * import { xmlHelp } from "./xml_help.ts";
 * const command = new Command("hello").description("Greets").option("-n, --name <name>", "Who", "world");
 * console.log(xmlHelp(command));
 * // <?xml version="1.0" encoding="UTF-8"?>
 * // <program name="hello" description="Greets">
 * //   <param name="name" char="n" type="string" default="world" description="Who"/>
 * // </program>
 * ```
 */
export function xmlHelp(command: CommandUnknownOpts): string {
  const group = isGroup(command);
  const tag = group ? "group" : "program";
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<${tag}${
      attributes({
        name: commandPath(command),
        version: rootOf(command).version(),
        description: command.description(),
      })
    }>`,
  ];
  const options = parameterOptions(command);
  for (const option of options) lines.push(`  ${param(option, options)}`);
  for (const argument of command.registeredArguments) {
    lines.push(
      `  <arg${
        attributes({
          name: argument.name(),
          required: argument.required ? "true" : undefined,
          variadic: argument.variadic ? "true" : undefined,
          choices: argument.argChoices?.join("|"),
          default: stringValue(argument.defaultValue),
          description: argument.description,
        })
      }/>`,
    );
  }
  for (const sub of visibleCommands(command)) {
    lines.push(
      `  <${isGroup(sub) ? "group" : "command"}${
        attributes({ name: sub.name(), description: shortDescription(sub) })
      }/>`,
    );
  }
  lines.push(`</${tag}>`);
  return `${lines.join("\n")}\n`;
}

function param(option: Option, siblings: readonly Option[]): string {
  const type = optionType(option);
  const details = optionTypeDetails(option);
  return `<param${
    attributes({
      name: optionName(option),
      char: option.short?.replace(/^-/, ""),
      type,
      required: option.mandatory ? "true" : undefined,
      default: type === "flag" && option.defaultValue === undefined
        ? "false"
        : stringValue(option.defaultValue),
      choices: option.argChoices?.join("|"),
      // Choices take any case (the canonical form is what is printed and passed on).
      case_sensitive: option.argChoices === undefined ? undefined : "false",
      min: stringValue(details.min),
      max: stringValue(details.max),
      separator: details.separator,
      exists: details.exists === true ? "true" : undefined,
      relations: relations(option, siblings),
      description: option.description,
    })
  }/>`;
}

function optionName(option: Option): string {
  return (option.long ?? option.short ?? "").replace(/^-+/, "");
}

/** The options this one excludes, as xmlhelpy writes them: `!user|!use-my-user-id`. */
function relations(option: Option, siblings: readonly Option[]): string | undefined {
  const conflicts = (option as Option & { conflictsWith?: string[] }).conflictsWith ?? [];
  const names = conflicts.map((attribute) =>
    siblings.find((sibling) => sibling.attributeName() === attribute)
  ).filter((sibling) => sibling !== undefined).map((sibling) => `!${optionName(sibling)}`);
  return names.length === 0 ? undefined : names.join("|");
}

function rootOf(command: CommandUnknownOpts): CommandUnknownOpts {
  let root = command;
  while (root.parent !== null) root = root.parent;
  return root;
}

function stringValue(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.join(",");
  return String(value);
}

function attributes(values: { [name: string]: string | undefined }): string {
  return Object.entries(values)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== "")
    .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
    .join("");
}

/**
 * Escapes text for an XML attribute value and drops characters XML cannot hold.
 *
 * @example Usage
 * ```ts
 * import { escapeXml } from "./xml_help.ts";
 * console.log(escapeXml(`a<b & "c"`)); // a&lt;b &amp; &quot;c&quot;
 * ```
 */
export function escapeXml(text: string): string {
  return text
    // deno-lint-ignore no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;")
    .replaceAll("\n", "&#10;")
    .replaceAll("\r", "&#13;")
    .replaceAll("\t", "&#9;");
}
