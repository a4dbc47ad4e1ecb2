import { Command, Option } from "@commander-js/extra-typings";
import { assertEquals } from "../_assert.ts";
import { escapeXml, xmlHelp } from "../../lib/cli/xml_help.ts";
import { setOptionType } from "../../lib/cli/_tree.ts";
import { parseXml } from "./_xml.ts";

Deno.test("xmlHelp() escapes markup, quotes and control characters in attributes", () => {
  const nasty = `a <b> & "c" 'd'\u0001\nnext`;
  const command = new Command("tool").version("1.0").description(nasty);
  const count = new Option("-c, --count <n>", nasty).default(3);
  setOptionType(count, "long");
  command.addOption(count).option("--flag", "A flag").argument("<path>", "Input path");
  const xml = xmlHelp(command);
  const root = parseXml(xml);
  assertEquals(root.name, "program");
  assertEquals(root.attributes.description, `a <b> & "c" 'd'\nnext`);
  assertEquals(root.children.map((child) => child.attributes), [
    {
      name: "count",
      char: "c",
      type: "long",
      default: "3",
      description: `a <b> & "c" 'd'\nnext`,
    },
    { name: "flag", type: "flag", default: "false", description: "A flag" },
    { name: "path", required: "true", description: "Input path" },
  ]);
});

Deno.test("escapeXml() leaves plain text alone", () => {
  assertEquals(escapeXml("plain text"), "plain text");
});
