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
  parameterOptions,
  shortDescription,
  visibleCommands,
} from "./_tree.ts";

/**
 * Describes a command as XML: `<program>` for a command (its `<param>` options with type,
 * default, choices and whether they are required, and its `<arg>` arguments) or `<group>` for a
 * group (its options and its `<command>`/`<group>` children). Attribute values are escaped.
 *
 * @example Usage
 * ```ts
 * import { Command } from "@commander-js/extra-typings";
 * import { xmlHelp } from "./xml_help.ts";
 * const command = new Command("hello").description("Greets").option("-n, --name <name>", "Who", "world");
 * console.log(xmlHelp(command));
 * // <?xml version="1.0" encoding="UTF-8"?>
 * // <program name="hello" description="Greets">
 * //   <param name="name" char="n" type="string" required="false" default="world" description="Who"/>
 * // </program>
 * ```
 *
 * @param command The command to describe.
 * @returns The XML document.
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
  for (const option of parameterOptions(command)) lines.push(`  ${param(option)}`);
  for (const argument of command.registeredArguments) {
    lines.push(
      `  <arg${
        attributes({
          name: argument.name(),
          required: String(argument.required),
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

function param(option: Option): string {
  const type = optionType(option);
  return `<param${
    attributes({
      name: (option.long ?? option.short ?? "").replace(/^-+/, ""),
      char: option.short?.replace(/^-/, ""),
      type,
      required: String(option.mandatory),
      default: type === "flag" && option.defaultValue === undefined
        ? "false"
        : stringValue(option.defaultValue),
      choices: option.argChoices?.join("|"),
      description: option.description,
    })
  }/>`;
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
 *
 * @param text The text.
 * @returns The escaped text.
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
