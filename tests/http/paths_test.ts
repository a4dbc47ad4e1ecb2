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
import { InputError } from "../../lib/errors.ts";
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

/**
 * Matching an error's text: a regular expression run on a message (`/x/.test(error.message)`,
 * `pattern.exec(message)`), or a string method that searches or rewrites one
 * (`message.includes(…)`, `error.message.replace(…)`, `String(error).match(…)`).
 */
const WORDING = new RegExp(
  [
    String.raw`\.(test|exec)\([^)]*\b(message|description)\b`,
    String
      .raw`\b(message|description)\??\.(includes|match|matchAll|startsWith|endsWith|search|replace|replaceAll|indexOf|lastIndexOf)\(`,
    String
      .raw`\bString\((error|cause|current)\)\.(includes|match|matchAll|startsWith|endsWith|search|replace|replaceAll|indexOf)\(`,
  ].join("|"),
);

/**
 * The only places lib/cli reads an error's text: Deno's own OS error text (the quoted path, the
 * `--allow-all` hint of a special file, a library message that only passes on "(os error N)"),
 * never the library's wording (taking a message's first line is not matching it). Each entry must still be found, so the list cannot go stale.
 */
const OS_TEXT = [
  { file: "_messages.ts", text: "[...message.matchAll(" },
  { file: "_messages.ts", text: "/--allow-all/.test(message)" },
  { file: "_errors.ts", text: "NotCapable/.test(error.message)" },
];

Deno.test("no file under lib/cli decides by the wording of an error", async () => {
  const offenders: string[] = [];
  const used = new Set<string>();
  for await (const { path, text } of sources(new URL("cli/", LIB))) {
    for (const { line, code } of codeLines(text)) {
      const allowed = OS_TEXT.find((entry) => entry.file === path && code.includes(entry.text));
      if (allowed !== undefined) used.add(allowed.text);
      else if (WORDING.test(code)) offenders.push(`lib/cli/${path}:${line}: ${code.trim()}`);
    }
  }
  assertEquals(offenders, []);
  assertEquals(OS_TEXT.filter((entry) => !used.has(entry.text)), []);
});

Deno.test("the wording check catches tests, searches and rewrites of an error's text", () => {
  const caught = [
    "if (/x/.test(error.message)) return;",
    "const found = PATTERN.exec(error.message);",
    'if (error.message.includes("or pass host and pat")) return;',
    "let result = error.message.replace(pattern, replace);",
    "return message.replace(/\\bextras\\[/g, 'metadata entry');",
    "const match = message.match(/'([^']+)'/);",
    'if (String(error).includes("not a metadata type")) return;',
    "error.description?.startsWith('No license')",
  ];
  for (const sample of caught) assertEquals(WORDING.test(sample), true, sample);
  const fine = [
    "if (error instanceof MetadataError) return metadataLine(error);",
    "throw wrongFormat(error.message);",
    "const { problem, path } = error;",
  ];
  for (const sample of fine) assertEquals(WORDING.test(sample), false, sample);
});

/**
 * A regular expression literal (or `new RegExp("…")`) that spells library wording: a phrase of
 * three words, the `extras` of a metadata path, or a temporary file's `.part`. Such a pattern
 * only serves to rewrite a library message; the CLI builds its sentence from the error's fields.
 */
const WORDS = String.raw`(\b[A-Za-z]+ [a-z]+ [a-z]+\b|extras|\\\.part)`;
// Characters of a regular expression literal, character classes (which may hold `/`) included.
const REGEX_BODY = String.raw`(?:\[(?:[^\]\n\\]|\\.)*\]|[^/\n\\[]|\\.)*`;
const PHRASE_PATTERN = new RegExp(
  [
    String.raw`(^\s*|[=(,:\[!&|?]\s*)\/(?![/*])${REGEX_BODY}${WORDS}${REGEX_BODY}\/[dgimsuyv]*`,
    String.raw`new RegExp\(\s*["'\x60][^"'\x60]*${WORDS}`,
  ].join("|"),
);

Deno.test("no regular expression under lib/cli spells the library's wording", async () => {
  const offenders: string[] = [];
  for await (const { path, text } of sources(new URL("cli/", LIB))) {
    for (const { line, code } of codeLines(text)) {
      if (PHRASE_PATTERN.test(code)) offenders.push(`lib/cli/${path}:${line}: ${code.trim()}`);
    }
  }
  assertEquals(offenders, []);
  // The rewrites this check replaced (issue 9 follow-up) are caught:
  const old = [
    '  [/\\bnothing is not a metadata type; use one of/, () => "the type is missing: give one of"],',
    '  [/,? ?or pass host and pat directly/, () => ", or set REPO_APY_HOST and REPO_APY_PAT"],',
    "    /\\bextras((?:\\[\\d+\\]|\\.[A-Za-z_]+)+)/g,",
    "  [/(^|[/\\\\'\" ])\\.([^/\\\\'\"]+?)\\.[0-9a-f]{8}\\.part\\b/g, (before, name) => name],",
    'const rewrite = new RegExp("or pass host and pat directly");',
  ];
  for (const sample of old) assertEquals(PHRASE_PATTERN.test(sample), true, sample);
  for (
    const fine of ["const n = a / b / c;", "/^\\d+$/.test(part)", "const url = `${a}/b c d/`;"]
  ) {
    assertEquals(PHRASE_PATTERN.test(fine), false, fine);
  }
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
