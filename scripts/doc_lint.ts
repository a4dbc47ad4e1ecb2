// deno-lint-ignore-file no-console -- a check script that reports to the terminal
/**
 * Documentation checks over every public entry point (`mod.ts`, `lib/http/mod.ts`,
 * `lib/config/mod.ts`, `lib/import/mod.ts`, `lib/collection_sync/mod.ts`, `cli.ts`,
 * `lib/cli/kit.ts`, `lib/testing/mod.ts`):
 *
 * 1. `deno doc --lint` (summaries, return types, private type references), over all entry points
 *    together and over `cli.ts`, `./http`, `./config` and `./testing` each alone. The
 *    `./cli/kit` entry point hands commander's `Command` to third-party commands (that is its job:
 *    `apyCommand` wraps a commander command). Commander's own types are not ours to document, so
 *    "references private type" errors that name one of them are accepted; every other finding
 *    fails.
 * 2. Examples, walked from `deno doc --json`: every exported function and class is shown in an
 *    `@example`: its own, or that of the symbol its summary links to (`{@linkcode …}`) when that
 *    example names it (one example for a family of errors). Every public method of an exported
 *    class is shown in its own, in its class's (which calls it), or its summary links to where it
 *    is shown: a method that forwards one call, or an alias, gets one line, and the class or the
 *    function it forwards to carries one example per capability (types, interfaces and constants
 *    need only the summary that `deno doc --lint` asks for). An example fenced `ignore` (not run by the test
 *    task's `tests/doc_examples_test.ts`) must say why in a comment naming the real host it needs,
 *    e.g. `// ignore: needs a real host (https://repo.example.org)`; anything else runs against the
 *    local server from `@repo/apy/testing`.
 *
 * Symbols that still lack an example are listed in `scripts/doc_lint_baseline.json`, a ratchet: a
 * symbol not listed there fails, and a listed symbol that now has its example fails too until it
 * is removed from the list (`deno run --allow-run=deno scripts/doc_lint.ts --print-baseline >
 * /tmp/baseline.json` prints the new list, to copy over the old one once the diff only removes
 * lines; not redirected straight onto the list, which this script imports).
 *
 * @module
 */

const THIRD_PARTY_TYPES = new Set(["Command", "CommandUnknownOpts", "OptionValues"]);
const ENTRY_POINTS = [
  "mod.ts",
  "lib/http/mod.ts",
  "lib/config/mod.ts",
  "lib/import/mod.ts",
  "lib/collection_sync/mod.ts",
  "cli.ts",
  "lib/cli/kit.ts",
  "lib/testing/mod.ts",
];
import BASELINE from "./doc_lint_baseline.json" with { type: "json" };
/** A link in a method's summary: the method forwards, and the linked symbol shows how. */
const LINK = /\{@link(?:code|plain)?\s+[^}]+\}/;
const LINKS = /\{@link(?:code|plain)?\s+([\w$]+)[^}]*\}/g;
/** A reason comment in an ignored example: it must name the real host that keeps it from running. */
const IGNORE_REASON = /\/\/.*\breal host\b/i;

interface JsDocTag {
  kind: string;
  doc?: string;
}
interface JsDoc {
  doc?: string;
  tags?: JsDocTag[];
}
interface DocMethod {
  name: string;
  kind: string;
  accessibility?: string;
  jsDoc?: JsDoc;
}
interface DocDeclaration {
  kind: string;
  jsDoc?: JsDoc;
  def?: { methods?: DocMethod[] };
}
export interface DocSymbol {
  name: string;
  declarations: DocDeclaration[];
}
interface DocJson {
  nodes: Record<string, { symbols?: DocSymbol[] }>;
}

/** One finding of the example check: `key` is stable (entry point, symbol, method) for the baseline. */
interface Finding {
  key: string;
  problem: "no example" | "ignored example without a real-host reason";
}

async function denoDoc(args: string[]): Promise<{ stdout: string; stderr: string }> {
  const { stderr, stdout } = await new Deno.Command("deno", {
    args: ["doc", ...args],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { stdout: new TextDecoder().decode(stdout), stderr: new TextDecoder().decode(stderr) };
}

function examples(docs: (JsDoc | undefined)[]): string[] {
  return docs.flatMap((doc) =>
    (doc?.tags ?? []).filter((tag) => tag.kind === "example").map((tag) => tag.doc ?? "")
  );
}

/** The examples' findings: missing, or fenced `ignore` with no comment naming a real host. */
function checkExamples(key: string, found: string[]): Finding[] {
  if (found.length === 0) return [{ key, problem: "no example" }];
  const unexplained = found.some((text) =>
    /```\w*[^\n]*\bignore\b/.test(text) && !IGNORE_REASON.test(text)
  );
  return unexplained ? [{ key, problem: "ignored example without a real-host reason" }] : [];
}

/** Walks one entry point's public functions, classes and class methods. */
export function exampleFindings(entry: string, symbols: DocSymbol[]): Finding[] {
  const findings: Finding[] = [];
  const shownIn = new Map(
    symbols.map((symbol) => [symbol.name, examples(symbol.declarations.map((d) => d.jsDoc))]),
  );
  for (const symbol of symbols) {
    const declarations = symbol.declarations.filter((d) =>
      d.kind === "function" || d.kind === "class"
    );
    if (declarations.length === 0) continue;
    const classExamples = examples(declarations.map((d) => d.jsDoc));
    const named = new RegExp(`\\b${symbol.name.replace(/\$/g, "\\$")}\\b`);
    const linked = declarations.flatMap((d) =>
      [...(d.jsDoc?.doc ?? "").matchAll(LINKS)].map((match) => match[1] ?? "")
    );
    const shownByLink = classExamples.length === 0 &&
      linked.some((name) => (shownIn.get(name) ?? []).some((text) => named.test(text)));
    if (!shownByLink) findings.push(...checkExamples(`${entry}:${symbol.name}`, classExamples));
    const methods = new Map<string, DocMethod[]>();
    for (const declaration of declarations) {
      for (const method of declaration.def?.methods ?? []) {
        if (method.accessibility === "private" || method.accessibility === "protected") continue;
        if (method.name.startsWith("_") || method.name.startsWith("#")) continue;
        if (method.name.startsWith("[")) continue; // Symbol.asyncDispose and friends
        methods.set(method.name, [...(methods.get(method.name) ?? []), method]);
      }
    }
    for (const [name, overloads] of methods) {
      if (overloads.some((method) => LINK.test(method.jsDoc?.doc ?? ""))) continue;
      const call = new RegExp(`\\.${name.replace(/\$/g, "\\$")}\\b`);
      if (classExamples.some((text) => call.test(text))) continue;
      findings.push(
        ...checkExamples(
          `${entry}:${symbol.name}.${name}`,
          examples(overloads.map((m) => m.jsDoc)),
        ),
      );
    }
  }
  return findings;
}

/**
 * Entry points that `deno doc --lint` must pass on alone, as a user runs it (`deno doc --lint
 * cli.ts`): each exports the types its own signatures name. The main entry's signatures name the
 * server's JSON types, whose home is `@repo/apy/http`; `@repo/apy/import` and `@repo/apy/cli/kit`
 * hand out the client's classes and commander's: those are linted with the package, as JSR
 * documents it.
 */
const LINTED_ALONE = [
  "cli.ts",
  "lib/http/mod.ts",
  "lib/config/mod.ts",
  "lib/testing/mod.ts",
];

async function lintFindings(): Promise<{ rejected: string[]; accepted: number }> {
  const runs = [ENTRY_POINTS, ...LINTED_ALONE.map((entry) => [entry])];
  const findings: string[] = [];
  for (const entries of runs) {
    const { stdout, stderr } = await denoDoc(["--lint", ...entries]);
    const blocks = (stderr + stdout).split(/\n(?=error\[)/).filter((b) => b.startsWith("error["));
    const where = entries.length === 1 ? ` (deno doc --lint ${entries[0]} alone)` : "";
    findings.push(...blocks.map((block) => `${block.trimEnd()}${where}`));
  }
  const accepted = findings.filter((block) => {
    const match = block.match(/^error\[private-type-ref\]: .* references private type '([^']+)'/);
    return match !== null && THIRD_PARTY_TYPES.has(match[1] ?? "");
  });
  return {
    rejected: findings.filter((block) => !accepted.includes(block)),
    accepted: accepted.length,
  };
}

async function allExampleFindings(): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const entry of ENTRY_POINTS) {
    const { stdout } = await denoDoc(["--json", entry]);
    const json = JSON.parse(stdout) as DocJson;
    const node = Object.entries(json.nodes).find(([url]) => url.endsWith(`/${entry}`))?.[1];
    findings.push(...exampleFindings(entry, node?.symbols ?? []));
  }
  return findings;
}

function baselineKey(finding: Finding): string {
  return `${finding.key} (${finding.problem})`;
}

if (import.meta.main) {
  const { rejected, accepted } = await lintFindings();
  for (const block of rejected) console.error(block.trimEnd(), "\n");
  const examplesFound = (await allExampleFindings()).map(baselineKey);
  if (Deno.args.includes("--print-baseline")) {
    console.log(JSON.stringify(examplesFound.sort(), null, 2));
    Deno.exit(0);
  }
  const baseline = new Set<string>(BASELINE);
  const fresh = examplesFound.filter((key) => !baseline.has(key));
  const current = new Set(examplesFound);
  const stale = [...baseline].filter((key) => !current.has(key));
  for (const key of fresh) console.error(`error[example]: ${key}`);
  for (const key of stale) {
    console.error(
      `error[example-baseline]: fixed, remove from scripts/doc_lint_baseline.json: ${key}`,
    );
  }
  console.log(
    `doc lint: ${rejected.length} finding(s); ${accepted} reference(s) to commander's types accepted; ` +
      `examples: ${fresh.length} new finding(s), ${stale.length} stale baseline entr(ies), ` +
      `${baseline.size - stale.length} known gap(s) left in the baseline`,
  );
  if (rejected.length > 0 || fresh.length > 0 || stale.length > 0) Deno.exit(1);
}
