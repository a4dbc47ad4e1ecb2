// Our --xmlhelp against kadi-apy 0.51.0's, attribute by attribute, for every command the Python
// client has. The reference is stored test data (scripts/interop/xmlhelp_reference.sh writes it
// from the real client), so this test needs no Python.

import { assertEquals } from "../_assert.ts";
import { createProgram } from "../../lib/cli/program.ts";
import { subcommand } from "../../lib/cli/_tree.ts";
import { xmlHelp } from "../../lib/cli/xml_help.ts";
import { parseXml, type XmlElement } from "./_xml.ts";

const REFERENCE = new URL("./testdata/kadi_apy_0.51.0_xmlhelp.txt", import.meta.url);

/** Attributes that must be equal (descriptions and defaults are ours to word and choose). */
const COMPARED = [
  "char",
  "type",
  "required",
  "min",
  "max",
  "separator",
  "exists",
  "case_sensitive",
  "relations",
  "choices",
] as const;

/** Known name differences: `<command>: <reference name>` → our name (none today). */
const RENAMED: Record<string, string> = {};

/**
 * Known attribute differences (docs/compatibility.md, "--xmlhelp"), `<command> --<name>:
 * <attribute>` → our value. Ids are typed `long` where the reference says `string` (every value
 * a form accepts is still valid for the reference); `add-files -n` is a `path` (a file picker);
 * the search filters also exclude `-U/--username`, which the reference lets through.
 */
const KNOWN: Record<string, string> = {
  "misc restore-resource --item-id: type": "long",
  "misc purge-resource --item-id: type": "long",
  "misc reuse-collection --collection-id: type": "long",
  "records add-files --file-name: type": "path",
};
for (const command of ["records get-records", "collections get-collections"]) {
  for (const name of ["tag", "tag-operator", "mimetype", "collection", "child_collections"]) {
    KNOWN[`${command} --${name}: relations`] = "!use-my-user-id|!user|!username";
  }
  for (const name of ["visibility", "query"]) {
    KNOWN[`${command} --${name}: relations`] = "!use-my-user-id|!user|!username";
  }
}

function referenceDocuments(text: string): XmlElement[] {
  return text.split(/^<\?xml version='1\.0' encoding='utf-8'\?>\n/m)
    .filter((part) => part.trim() !== "")
    .map((part) => parseXml(`<?xml version="1.0" encoding="UTF-8"?>\n${part}`));
}

/** Choices compare as sets; relations as sets of (renamed) names. */
function normalized(command: string, name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (name === "choices") return value.split("|").sort().join("|");
  if (name === "relations") {
    return value.split("|").map((relation) => {
      const target = relation.replace(/^!/, "");
      return relation.replace(target, RENAMED[`${command}: ${target}`] ?? target);
    }).sort().join("|");
  }
  return value;
}

Deno.test("--xmlhelp gives every option of kadi-apy 0.51.0's commands the same attributes", async () => {
  const program = createProgram({ version: "1" });
  const documents = referenceDocuments(await Deno.readTextFile(REFERENCE));
  assertEquals(documents.length, 86);
  const differences: string[] = [];
  for (const reference of documents) {
    const [, group = "", name = ""] = (reference.attributes.name ?? "").split(" ");
    const command = subcommand(program, group) && subcommand(subcommand(program, group)!, name);
    if (command === undefined) {
      differences.push(`${group} ${name}: no such command`);
      continue;
    }
    const ours = parseXml(xmlHelp(command));
    assertEquals(ours.name, "program", `${group} ${name}`);
    for (const param of reference.children) {
      const where = `${group} ${name}`;
      const referenceName = param.attributes.name ?? "";
      const ourName = RENAMED[`${where}: ${referenceName}`] ?? referenceName;
      const mine = ours.children.find((child) => child.attributes.name === ourName);
      if (mine === undefined) {
        differences.push(`${where}: no --${ourName}`);
        continue;
      }
      for (const attribute of COMPARED) {
        const known = KNOWN[`${where} --${ourName}: ${attribute}`];
        const expected = known ?? normalized(where, attribute, param.attributes[attribute]);
        const actual = normalized(where, attribute, mine.attributes[attribute]);
        if (expected !== actual) {
          differences.push(
            `${where} --${ourName}: ${attribute}=${actual ?? "(none)"}, reference ${
              expected ?? "(none)"
            }`,
          );
        }
      }
    }
  }
  assertEquals(differences, []);
});

Deno.test('--xmlhelp never writes required="false" (the reference leaves it out)', () => {
  const program = createProgram({ version: "1" });
  const pending = [program as Parameters<typeof xmlHelp>[0]];
  while (pending.length > 0) {
    const command = pending.pop()!;
    pending.push(...command.commands);
    assertEquals(xmlHelp(command).includes('required="false"'), false, command.name());
  }
});
