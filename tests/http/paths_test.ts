// The one-paths-module rule: no file under lib/ (except lib/testing and the paths module)
// spells an endpoint path, and no CLI file reaches the transport.
import {
  exportPath,
  fileByNamePath,
  identifierPath,
  membersPath,
  resourcePath,
  rolesPath,
  userPath,
} from "../../lib/http/paths.ts";
import { InputError } from "../../lib/http/errors.ts";
import { assertEquals, assertThrows } from "../_assert.ts";

const LIB = new URL("../../lib/", import.meta.url);

/** Segments that start an endpoint path of the API. */
const SEGMENTS = [
  "records",
  "collections",
  "templates",
  "groups",
  "users",
  "files",
  "uploads",
  "roles",
  "revisions",
  "export",
  "extras",
  "trash",
  "restore",
  "purge",
  "licenses",
  "tags",
  "info",
  "identities",
  "members",
  "identifier",
  "download",
  "chunks",
  "me",
];
// A quote, backtick or `}` of a template literal directly followed by `/<segment>`.
const PATH_PATTERN = new RegExp(`(["'\`]|\\})/(${SEGMENTS.join("|")})\\b`);

/** Path-like text that is prose in a message, not a request path. */
const PROSE = [{ file: "http/url.ts", text: "such as '/records/1'" }];

async function* sources(dir: URL, prefix = ""): AsyncGenerator<{ path: string; text: string }> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory) {
      yield* sources(new URL(`${entry.name}/`, dir), `${path}/`);
    } else if (entry.name.endsWith(".ts")) {
      yield { path, text: await Deno.readTextFile(new URL(entry.name, dir)) };
    }
  }
}

/** The code lines of a file: comment lines and JSDoc left out. */
function codeLines(text: string): { line: number; code: string }[] {
  return text.split("\n").map((code, i) => ({ line: i + 1, code }))
    .filter(({ code }) => !/^\s*(\/\/|\*|\/\*\*)/.test(code));
}

Deno.test("no file under lib/ outside the paths module assembles an endpoint path", async () => {
  const offenders: string[] = [];
  for await (const { path, text } of sources(LIB)) {
    if (path.startsWith("testing/") || path === "http/paths.ts") continue;
    for (const { line, code } of codeLines(text)) {
      const prose = PROSE.some((p) => p.file === path && code.includes(p.text));
      if (!prose && PATH_PATTERN.test(code)) offenders.push(`lib/${path}:${line}: ${code.trim()}`);
    }
  }
  assertEquals(offenders, []);
});

Deno.test("the path check catches literal and template paths", () => {
  const samples = ['"/info"', "`/users/${id}`", "`${record.endpoint}/files`", "'/trash'"];
  for (const sample of samples) assertEquals(PATH_PATTERN.test(sample), true, sample);
  assertEquals(PATH_PATTERN.test('"-r/--record-id"'), false);
});

Deno.test("no file under lib/cli imports or calls the transport", async () => {
  const offenders: string[] = [];
  for await (const { path, text } of sources(new URL("cli/", LIB))) {
    for (const { line, code } of codeLines(text)) {
      if (/\.transport\b|http\/transport\.ts|http\/paginate\.ts|http\/paths\.ts/.test(code)) {
        offenders.push(`lib/cli/${path}:${line}: ${code.trim()}`);
      }
    }
  }
  assertEquals(offenders, []);
});

Deno.test("no file under lib/cli decides by the wording of an error", async () => {
  const wording =
    /\.test\([^)]*\.(message|description)\b|\.(message|description)\.(includes|match|startsWith|endsWith|search)\(/;
  const offenders: string[] = [];
  for await (const { path, text } of sources(new URL("cli/", LIB))) {
    for (const { line, code } of codeLines(text)) {
      // Deno's own OS error text ("(os error 13)", "NotCapable") is not the library's wording.
      const osText = code.includes("(os error") || code.includes("NotCapable");
      if (!osText && wording.test(code)) offenders.push(`lib/cli/${path}:${line}: ${code.trim()}`);
    }
  }
  assertEquals(offenders, []);
  assertEquals(wording.test("if (/x/.test(error.message)) return;"), true);
});

Deno.test("paths are built with checked ids and encoded segments", () => {
  assertEquals(resourcePath("record", 5), "/records/5");
  assertEquals(identifierPath("group", "a b"), "/groups/identifier/a%20b");
  assertEquals(rolesPath({ type: "template", id: 2 }, "groups", 3), "/templates/2/roles/groups/3");
  assertEquals(membersPath(4), "/groups/4/members");
  assertEquals(userPath({ identityType: "local", username: "j/d" }), "/users/local/j%2Fd");
  assertEquals(userPath({ me: true }), "/users/me");
  assertEquals(
    exportPath({ type: "template", id: 1 }, "json-schema"),
    "/templates/1/export/json-schema",
  );
  assertEquals(fileByNamePath(1, "a/b c.txt"), "/records/1/files/name/a/b%20c.txt");
  assertThrows(() => resourcePath("record", 0), InputError);
  assertThrows(() => membersPath(1, 1.5), InputError);
  assertThrows(() => exportPath({ type: "record", id: 1 }, ".."), InputError);
});
