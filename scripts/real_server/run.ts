// deno-lint-ignore-file no-console -- a script that reports to the terminal
/**
 * Runs repo-apy's CLI across every command group against a real Kadi4Mat (set up by
 * `scripts/real_server/up.sh`), and the Python client kadi-apy as the control where a
 * step names its equivalent. One line per invocation: what was expected, what came; the
 * last line is `real-server: N invocations, M as expected, K unexpected`.
 *
 * Usage (run.sh passes these):
 *   deno run <perms> scripts/real_server/run.ts <host> <token-file> <work-dir> [kadi-apy]
 *
 * @example
 * ```sh
 * scripts/real_server/run.sh
 * ```
 * @module
 */

import { fileURLToPath } from "node:url";
import { makeCertificates } from "../../tests/_tls.ts";
import { typedEln, writeTestFile } from "../_files.ts";

const CLI = fileURLToPath(new URL("../../cli.ts", import.meta.url));
const CORPUS = fileURLToPath(new URL("../../../shared/corpus/", import.meta.url));

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** What a step expects: an exit code, and optionally a check of the result (null: fine). */
interface Expectation {
  code: number;
  check?: (r: Result) => string | null;
  /** kadi-apy arguments of the same operation, run as the control. */
  apy?: string[];
  stdin?: string;
  /**
   * Run with these variables and no config file (REPO_APY_CONFIG names none): the
   * environment-only configuration of CI.
   */
  env?: Record<string, string>;
}

/**
 * An HTTPS proxy in front of `target` (http://127.0.0.1:port) on a free loopback port, its
 * certificate signed by a throwaway CA (openssl): `caPath` is the CA's PEM file. Requests are
 * passed on as they came (the host header is the target's), answers as they come back.
 */
async function tlsProxy(
  target: string,
): Promise<{ url: string; caPath: string } & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ dir: work, prefix: "tls-" });
  const certs = await makeCertificates(dir);
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    cert: certs.cert,
    key: certs.key,
    onListen: () => {},
  }, async (request) => {
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    headers.delete("host");
    headers.delete("accept-encoding");
    return await fetch(new URL(url.pathname + url.search, target), {
      method: request.method,
      headers,
      body: request.body,
      redirect: "manual",
    });
  });
  return {
    url: `https://127.0.0.1:${server.addr.port}`,
    caPath: certs.caPath,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

const [host, tokenFile, workArg, apyBin] = Deno.args;
/** Whether the server has a search backend; without one, Kadi's searches answer empty lists. */
const searchBackend = Deno.env.get("REAL_SERVER_SEARCH") === "1";
if (!host || !tokenFile || !workArg) {
  console.error("usage: run.ts <host> <token-file> <work-dir> [kadi-apy]");
  Deno.exit(2);
}
const work = workArg;
const tokens = Object.fromEntries(
  (await Deno.readTextFile(tokenFile)).split("\n").filter((l) => l.includes("=")).map((l) => {
    const i = l.indexOf("=");
    return [l.slice(0, i), l.slice(i + 1)];
  }),
) as Record<string, string>;
const pat = tokens.KADI_TOKEN ?? "";
const bobId = tokens.KADI_TOKEN2_USER_ID ?? "2";
await Deno.mkdir(`${work}/home`, { recursive: true });
await Deno.writeTextFile(
  `${work}/home/.repoconfig`,
  `[global]\ndefault = "real"\n\n[real]\nhost = "${host}"\npat = "${pat}"\n`,
  { mode: 0o600 },
);
await Deno.writeTextFile(
  `${work}/home/.kadiconfig`,
  `[global]\ndefault = real\ntimeout = 300\nverify = True\n\n[real]\nhost = ${host}\npat = ${pat}\n`,
  { mode: 0o600 },
);

let total = 0;
let asExpected = 0;
const unexpected: string[] = [];

async function exec(
  cmd: string,
  args: string[],
  stdin?: string,
  env?: Record<string, string>,
): Promise<Result> {
  const child = new Deno.Command(cmd, {
    args,
    cwd: work,
    env: {
      HOME: `${work}/home`,
      NO_COLOR: "1",
      REPO_APY_CONFIG: env === undefined ? `${work}/home/.repoconfig` : `${work}/no-config`,
      ...env,
    },
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

function cli(args: string[], stdin?: string, env?: Record<string, string>): Promise<Result> {
  return exec(
    Deno.execPath(),
    [
      "run",
      "--quiet",
      `--allow-env=REPO_APY_CONFIG,HOME${env === undefined ? "" : `,${Object.keys(env)}`}`,
      `--allow-read=${work},${CORPUS}`,
      `--allow-write=${work}`,
      "--allow-net=127.0.0.1",
      CLI,
      ...args,
    ],
    stdin,
    env,
  );
}

function lastLine(text: string): string {
  const lines = text.trim().split("\n");
  return (lines[lines.length - 1] ?? "").slice(0, 160);
}

/** Runs `repo-apy <args>`, prints one line (expected, got) and returns the result. */
async function step(args: string[], want: Expectation): Promise<Result> {
  total++;
  const r = await cli(args, want.stdin, want.env);
  const problem = r.code !== want.code
    ? `exit ${r.code}: ${lastLine(r.stderr || r.stdout)}`
    : want.check?.(r) ?? null;
  const label = args.slice(0, 2).join(" ") + " " + args.slice(2).join(" ").slice(0, 70);
  if (problem === null) {
    asExpected++;
    console.log(`ok    ${label} | expected exit ${want.code}, got exit ${r.code}`);
  } else {
    unexpected.push(label);
    console.log(`DIFF  ${label} | expected exit ${want.code}, got ${problem}`);
  }
  if (want.apy && apyBin) {
    const c = await exec(apyBin, want.apy, want.stdin);
    const agrees = (c.code === 0) === (want.code === 0);
    console.log(
      `      control kadi-apy ${want.apy.slice(0, 2).join(" ")}: exit ${c.code}` +
        (agrees ? "" : ` (${lastLine(c.stderr || c.stdout)})`),
    );
  }
  return r;
}

const has = (text: string) => (r: Result) =>
  r.stdout.includes(text) ? null : `stdout lacks ${JSON.stringify(text)}`;
const json = (pred: (v: unknown) => string | null) => (r: Result) => {
  try {
    return pred(JSON.parse(r.stdout));
  } catch (e) {
    return `stdout is not JSON: ${(e as Error).message}`;
  }
};
const id = (r: Result) => r.stdout.trim();

/**
 * A search's check: with a search backend, `found`; without one, what Kadi 1.13.0 answers then
 * (no error, no items), so the line says so instead of counting the missing backend as ours.
 */
function searched(found: (r: Result) => string | null): (r: Result) => string | null {
  if (searchBackend) return found;
  return (r) => {
    const text = r.stdout.trim();
    const empty = text === "" || text === "[]" || /^\[\s*\]$/.test(text) ||
      !/\d/.test(text.replace(/"(total|page|per_page)[^,}]*/g, ""));
    return empty ? null : `no search backend, yet results: ${text.slice(0, 80)}`;
  };
}

/**
 * Waits (at most 20 s) until `args` passes `check`: for what the server does after its answer (the
 * search index, the worker). The step that counts runs after it.
 */
async function settle(args: string[], check: (r: Result) => string | null): Promise<void> {
  for (let i = 0; i < 20; i++) {
    if (check(await cli(args)) === null) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** A search's check that the results name `text` (`what` says what was looked for). */
const finds = (text: string, what: string) =>
  searched(json((v) => JSON.stringify(v).includes(text) ? null : `${what} (search backend?)`));
const run = Date.now().toString(36);
const rec = `rs-${run}-a`;
const rec2 = `rs-${run}-b`;
const col = `rs-${run}-col`;
const col2 = `rs-${run}-col-child`;
const tpl = `rs-${run}-tpl`;
const tplx = `rs-${run}-tplx`;
const grp = `rs-${run}-grp`;

// ---- config and misc ------------------------------------------------------------------
await step(["config", "get-repo-info"], { code: 0, check: has("1.13.0") });
await step(["misc", "get-repo-info", "--json"], {
  code: 0,
  check: json((
    v,
  ) => ((v as { info?: { version?: string } }).info?.version === "1.13.0" ? null : "no version")),
});
await step(["misc", "get-licenses", "-f", "CC-BY-4.0"], {
  code: 0,
  check: has("CC-BY-4.0"),
  apy: ["misc", "get-licenses", "-f", "CC-BY-4.0"],
});
await step(["misc", "get-roles"], { code: 0, check: has("admin"), apy: ["misc", "get-roles"] });

// ---- groups (first: records and collections give them roles) ---------------------------
await step(["groups", "create", "-i", grp, "-t", "Real group", "-p"], {
  code: 0,
  check: (r) => (/^\d+$/.test(id(r)) ? null : "no id"),
});

await step(["groups", "create", "-i", grp, "-e"], { code: 1 });
await step(["groups", "show-info", "-G", grp, "-d", "-v"], { code: 0, check: has("private") });
await step(["groups", "edit", "-G", grp, "-d", "A group on the real server"], { code: 0 });
await step(["groups", "add-user", "-G", grp, "-u", bobId, "-p", "member"], { code: 0 });
await step(["groups", "add-user", "-G", grp, "-u", bobId, "-p", "editor"], { code: 0 });
await step(["groups", "get-groups", "-q", grp, "--json"], {
  code: 0,
  check: finds(grp, "the new group is not found"),
  apy: ["groups", "get-groups", "-q", grp],
});

// ---- records ---------------------------------------------------------------------------
const r1 = await step(["records", "create", "-i", rec, "-t", "Real record", "-p"], {
  code: 0,
  check: (r) => (/^\d+$/.test(id(r)) ? null : "no id"),
});
const rid = id(r1);
await step(["records", "create", "-i", rec, "-p"], {
  code: 0,
  check: (r) => (id(r) === rid ? null : "other id"),
});
await step(["records", "create", "-i", rec, "-e"], {
  code: 1,
  apy: ["records", "create", "-i", rec, "-e"],
});
const r2 = await step(["records", "create", "-i", rec2, "-p"], { code: 0 });
const rid2 = id(r2);
await step([
  "records",
  "edit",
  "-R",
  rec,
  "-d",
  "Real description",
  "-y",
  "sample",
  "-l",
  "CC-BY-4.0",
], {
  code: 0,
});
await step(["records", "show-info", "-R", rec, "--json"], {
  code: 0,
  check: json((v) => {
    const o = v as Record<string, unknown>;
    return o.license === "CC-BY-4.0" && o.type === "sample"
      ? null
      : `license ${o.license} type ${o.type}`;
  }),
  apy: ["records", "show-info", "-r", rid, "-d"],
});
await Deno.writeTextFile(`${work}/small.txt`, "hello real server\n");
await Deno.mkdir(`${work}/folder`, { recursive: true });
for (const n of ["a.csv", "b.csv", "c.log"]) {
  await Deno.writeTextFile(`${work}/folder/${n}`, `${n}\n1,2\n`);
}
await writeTestFile(`${work}/big.bin`, 120 * 1024 * 1024);
// Export folders exist beforehand: `-p` names a folder (a missing path is taken as a file name),
// and kadi-apy wants its target folders to exist.
for (const d of ["down-apy", "exports", "exports-apy"]) {
  await Deno.mkdir(`${work}/${d}`, { recursive: true });
}
await step(["records", "add-files", "-R", rec, "-n", `${work}/small.txt`, "-d", "direct"], {
  code: 0,
  apy: ["records", "add-files", "-r", rid2, "-n", `${work}/small.txt`],
});
// The same name and content again: skipped (exit 0); other content under that name: exit 1.
await step(["records", "add-files", "-R", rec, "-n", `${work}/small.txt`], { code: 0 });
await Deno.writeTextFile(`${work}/small.txt`, "other content\n");
await step(["records", "add-files", "-R", rec, "-n", `${work}/small.txt`], {
  code: 1,
  apy: ["records", "add-files", "-r", rid2, "-n", `${work}/small.txt`],
});
await step(["records", "add-files", "-R", rec, "-n", `${work}/small.txt`, "-f"], { code: 0 });
await step(["records", "add-files", "-R", rec, "-n", `${work}/folder`, "-p", "*.csv"], { code: 0 });
await step(["records", "add-files", "-R", rec, "-n", `${work}/big.bin`], {
  code: 0,
  apy: ["records", "add-files", "-r", rid2, "-n", `${work}/big.bin`],
});
await step(["records", "add-files", "-R", rec, "-n", `${work}/big.bin`, "--skip-existing"], {
  code: 0,
});
await step(["records", "add-string-as-file", "-R", rec, "-s", "a string", "-n", "string.txt"], {
  code: 0,
});
await step(["records", "show-info", "-R", rec, "-l", "--json"], {
  code: 0,
  check: json((v) => {
    const files = (v as { files?: { name: string }[] }).files ?? [];
    const names = files.map((f) => f.name).sort().join(",");
    return names === "a.csv,b.csv,big.bin,small.txt,string.txt" ? null : `files ${names}`;
  }),
});
await step([
  "records",
  "edit-file",
  "-R",
  rec,
  "-n",
  "string.txt",
  "-a",
  "renamed.txt",
  "-m",
  "text/plain",
], {
  code: 0,
});
await step(["records", "get-file", "-R", rec, "-n", "big.bin", "-p", `${work}/down`], { code: 0 });
await step(["records", "get-file", "-R", rec, "-P", "*.csv", "-p", `${work}/down`, "-E"], {
  code: 0,
  check: has("a.csv"),
});
await step(["records", "get-file", "-R", rec, "-p", `${work}/down-all`, "-u"], {
  code: 0,
  apy: ["records", "get-file", "-r", rid, "-p", `${work}/down-apy`],
});
{
  const a = await Deno.readFile(`${work}/big.bin`);
  let b: Uint8Array | null = null;
  try {
    b = await Deno.readFile(`${work}/down/big.bin`);
  } catch { /* reported below */ }
  total++;
  if (b && b.length === a.length && a.every((x, i) => x === b![i])) {
    asExpected++;
    console.log("ok    records get-file 120 MB round trip | expected same bytes, got same bytes");
  } else {
    unexpected.push("records get-file round trip");
    console.log(
      `DIFF  records get-file 120 MB round trip | expected same bytes, got ${
        b?.length ?? "no file"
      }`,
    );
  }
}
await step(["records", "delete-file", "-R", rec, "-n", "renamed.txt"], { code: 0 });

// metadata: nested, units, dates, floats
await step([
  "records",
  "add-metadatum",
  "-R",
  rec,
  "-m",
  "temperature",
  "-v",
  "21.5",
  "-t",
  "float",
  "-u",
  "degC",
], {
  code: 0,
  apy: [
    "records",
    "add-metadatum",
    "-r",
    rid2,
    "-m",
    "temperature",
    "-v",
    "21.5",
    "-t",
    "float",
    "-u",
    "degC",
  ],
});
await step(["records", "add-metadatum", "-R", rec, "-m", "whole", "-v", "3.0", "-t", "float"], {
  code: 0,
});
await step(["records", "add-metadatum", "-R", rec, "-m", "count", "-v", "7", "-t", "integer"], {
  code: 0,
});
await step(["records", "add-metadatum", "-R", rec, "-m", "count", "-v", "8", "-t", "integer"], {
  code: 1,
  apy: ["records", "add-metadatum", "-r", rid2, "-m", "temperature", "-v", "1", "-t", "float"],
});
await step([
  "records",
  "add-metadata",
  "-R",
  rec,
  "-m",
  JSON.stringify([
    { key: "when", type: "date", value: "2024-05-01T12:00:00+00:00" },
    {
      key: "sample",
      type: "dict",
      value: [
        { key: "mass", type: "float", value: 1.25, unit: "g" },
        {
          key: "tags",
          type: "list",
          value: [{ type: "str", value: "x" }, { type: "int", value: 2 }],
        },
      ],
    },
  ]),
], { code: 0 });
await step(["records", "get-metadatum", "-R", rec, "-n", "temperature", "-p"], {
  code: 0,
  check: (r) => (id(r) === "21.5" ? null : `value ${id(r)}`),
  apy: ["records", "get-metadatum", "-r", rid2, "-n", "temperature"],
});
// The server stores 3.0 as a float (it sends "3.0"); JSON output says so by the type.
await step(["records", "get-metadatum", "-R", rec, "-n", "whole", "--json"], {
  code: 0,
  check: json((v) => {
    const e = v as { type?: string; value?: number };
    return e.type === "float" && e.value === 3 ? null : `whole float ${JSON.stringify(v)}`;
  }),
});
await step(["records", "get-metadatum", "-R", rec, "-n", "temperature", "-i", "unit", "-p"], {
  code: 0,
  check: (r) => (id(r) === "degC" ? null : `unit ${id(r)}`),
});
await step(["records", "get-metadatum", "-R", rec, "-n", "sample.mass", "-p"], {
  code: 0,
  check: (r) => (id(r) === "1.25" ? null : `value ${id(r)}`),
});
await step(["records", "get-metadatum", "-R", rec, "-n", "sample.tags.2", "-p"], {
  code: 0,
  check: (r) => (id(r) === "2" ? null : `value ${id(r)}`),
});
await step(["records", "get-metadatum", "-R", rec, "-n", "when", "-p"], {
  code: 0,
  check: has("2024-05-01"),
});
await step(["records", "get-metadatum", "-R", rec, "-n", "absent"], { code: 1 });
await step([
  "records",
  "add-metadata",
  "-R",
  rec2,
  "--plain",
  "-m",
  '{"a": {"b": [1, 2.5, "c"]}, "ok": true}',
], {
  code: 0,
});
await step(["records", "delete-metadatum", "-R", rec, "-m", "count"], { code: 0 });
await step(["records", "export-metadata", "-R", rec, "-P"], { code: 0, check: has("temperature") });

// tags, links, roles
await step(["records", "add-tag", "-R", rec, "-t", "real,server"], {
  code: 0,
  apy: ["records", "add-tag", "-r", rid2, "-t", "real"],
});
await step(["records", "remove-tag", "-R", rec, "-t", "server"], { code: 0 });
await step(["records", "add-record-link", "-R", rec, "-L", rec2, "-n", "derived from"], {
  code: 0,
  apy: ["records", "add-record-link", "-r", rid2, "-l", rid, "-n", "control link"],
});
const links = await step(["records", "show-record-links-to", "-R", rec, "-d", "out", "--json"], {
  code: 0,
  check: has("derived from"),
});
let linkId = "";
try {
  const v = JSON.parse(links.stdout) as { id: number }[] | { items: { id: number }[] };
  linkId = String((Array.isArray(v) ? v : v.items)[0]?.id ?? "");
} catch { /* reported by the step */ }
await step(["records", "show-record-links-to", "-R", rec2, "-d", "in"], {
  code: 0,
  check: has("derived from"),
});
await step([
  "records",
  "update-record-link",
  "-R",
  rec,
  "-l",
  linkId,
  "-n",
  "derived from (renamed)",
], { code: 0 });
await step(["records", "delete-record-link", "-R", rec, "-l", linkId], { code: 0 });
await step(["records", "add-user", "-R", rec, "-u", bobId, "-p", "collaborator"], {
  code: 0,
  apy: ["records", "add-user", "-r", rid2, "-u", bobId, "-p", "member"],
});
await step(["records", "add-user", "-R", rec, "-U", "bob", "-D", "local", "-p", "editor"], {
  code: 0,
});
await step(["records", "remove-user", "-R", rec, "-u", bobId], { code: 0 });
await step(["records", "add-group-role", "-R", rec, "-G", grp, "-p", "member"], { code: 0 });
await step(["records", "remove-group-role", "-R", rec, "-G", grp], { code: 0 });

// search and listing (need the search backend)
await step(["records", "get-records", "-q", rec, "--json"], {
  code: 0,
  check: finds(rec, "the record is not found"),
  apy: ["records", "get-records", "-q", rec],
});
await step(["records", "get-records", "-i", "--json"], {
  code: 0,
  check: json((v) => JSON.stringify(v).includes(rec) ? null : "own records not listed"),
});
await step(["records", "get-record-ids", "-t", "real", "-p"], {
  code: 0,
  check: searched((r) => (r.stdout.includes(rid) ? null : "tagged record not found")),
});

// exports
for (const t of ["json", "rdf", "pdf", "qr", "ro-crate"]) {
  await step(["records", "export", "-R", rec, "-e", t, "-p", `${work}/exports`], {
    code: 0,
    apy: ["records", "export", "-r", rid, "-e", t, "-p", `${work}/exports-apy`],
  });
}
await step(["records", "export", "-R", rec, "-e", "json", "-P"], { code: 0, check: has(rec) });

// ---- collections -----------------------------------------------------------------------
const c1 = await step(["collections", "create", "-i", col, "-t", "Real collection", "-p"], {
  code: 0,
});
const cid = id(c1);
await step(["collections", "create", "-i", col2, "-p"], { code: 0 });
await step(["collections", "edit", "-C", col, "-d", "parent"], { code: 0 });
await step(["collections", "add-collection-link", "-C", col, "-L", col2], { code: 0 });
await step(["collections", "add-record-link", "-C", col, "-R", rec], {
  code: 0,
  apy: ["collections", "add-record-link", "-c", cid, "-r", rid2],
});
await step(["records", "add-collection-link", "-R", rec2, "-C", col2], { code: 0 });
await step(["collections", "show-info", "-C", col, "-r", "-s", "--json"], {
  code: 0,
  check: has(rec),
});
await step(["collections", "add-tag", "-C", col, "-t", "real"], { code: 0 });
await step(["collections", "remove-tag", "-C", col, "-t", "real"], { code: 0 });
await step(["collections", "add-user", "-C", col, "-u", bobId, "-p", "member"], { code: 0 });
await step(["collections", "remove-user", "-C", col, "-u", bobId], { code: 0 });
await step(["collections", "add-group-role", "-C", col, "-G", grp, "-p", "editor"], { code: 0 });
await step(["collections", "remove-group-role", "-C", col, "-G", grp], { code: 0 });
await step(["records", "get-records", "-c", cid, "-C", "--json"], {
  code: 0,
  check: searched(
    json((v) => JSON.stringify(v).includes(rec2) ? null : "child collection's record not found"),
  ),
});
await step(["collections", "get-collections", "-q", col, "--json"], {
  code: 0,
  check: finds(col, "collection not found"),
  apy: ["collections", "get-collections", "-q", col],
});
await step(["collections", "get-collection-ids", "-p"], { code: 0, check: searched(has(cid)) });
for (const t of ["json", "rdf", "qr", "ro-crate"]) {
  await step(["collections", "export", "-C", col, "-e", t, "-p", `${work}/exports`], {
    code: 0,
    apy: ["collections", "export", "-c", cid, "-e", t, "-p", `${work}/exports-apy`],
  });
}
await step(["misc", "reuse-collection", "-c", cid, "-s", "-copy", "-r", "all"], { code: 0 });
await step(["records", "remove-collection-link", "-R", rec2, "-C", col2], { code: 0 });
await step(["collections", "remove-record-link", "-C", col, "-R", rec], { code: 0 });
await step(["collections", "remove-collection-link", "-C", col, "-L", col2], { code: 0 });

// ---- templates -------------------------------------------------------------------------
await step([
  "templates",
  "create",
  "-i",
  tpl,
  "-y",
  "record",
  "-d",
  '{"title": "From template", "extras": []}',
  "-p",
], {
  code: 0,
});
const tx = await step([
  "templates",
  "create",
  "-i",
  tplx,
  "-y",
  "extras",
  "-d",
  JSON.stringify([
    { key: "voltage", type: "float", value: 1.0, unit: "V" },
    { key: "operator", type: "str", value: null, validation: { required: true } },
  ]),
  "-p",
], { code: 0 });
const txid = id(tx);
await step(["templates", "show-info", "-T", tplx, "-a"], { code: 0, check: has("voltage") });
await step(["templates", "edit", "-T", tplx, "-d", "extras template"], { code: 0 });
await step(["templates", "add-user", "-T", tplx, "-u", bobId, "-p", "member"], { code: 0 });
await step(["templates", "remove-user", "-T", tplx, "-u", bobId], { code: 0 });
await step(["templates", "add-group-role", "-T", tplx, "-G", grp, "-p", "member"], { code: 0 });
await step(["templates", "remove-group-role", "-T", tplx, "-G", grp], { code: 0 });
// json and json-schema both download as <identifier>.json (in both clients): a folder each.
for (const t of ["json", "json-schema", "shacl"]) {
  for (const d of [`exports/${t}`, `exports-apy/${t}`]) {
    await Deno.mkdir(`${work}/${d}`, { recursive: true });
  }
  await step(["templates", "export", "-T", tplx, "-e", t, "-p", `${work}/exports/${t}`], {
    code: 0,
    apy: ["templates", "export", "-t", txid, "-e", t, "-p", `${work}/exports-apy/${t}`],
  });
}
await step(["templates", "get-templates", "-q", tplx, "--json"], {
  code: 0,
  check: finds(tplx, "template not found"),
});

// ---- users -----------------------------------------------------------------------------
await step(["users", "show-info", "-U", "bob", "-D", "local"], { code: 0, check: has("bob") });
// No user given: exit 1, as kadi-apy 0.51.0 (its exit code wins, issue 31).
await step(["users", "show-info"], { code: 1, apy: ["users", "show-info"] });
await step(["users", "show-info", "-u", "1", "--json"], { code: 0, check: has("alice") });
await step(["users", "get-users", "-f", "bob"], {
  code: 0,
  check: has("bob"),
  apy: ["users", "get-users", "-f", "bob"],
});
await step(["misc", "get-tags", "-f", "real"], { code: 0, check: has("real") });

// ---- imports ---------------------------------------------------------------------------
for (
  const f of [
    "eln/kadi4mat/records-example.eln",
    "eln/elabftw/single-experiment-2022-07-07.eln",
    "eln/PASTA/PASTA.eln",
  ]
) {
  await step(["misc", "import-eln", "-p", `${CORPUS}${f}`], { code: 0 });
}
await step([
  "misc",
  "import-json-schema",
  "-p",
  `${CORPUS}json-schema/kit-materials-science/SEM_schema.json`,
], {
  code: 0,
});
await step(["misc", "import-shacl", "-p", `${CORPUS}shacl/coscine/engmeta.ttl`], { code: 0 });

// ELN import lets the server detect the MIME type (issue 31): a PNG declared `image/x-png` and a
// gzip file declared `application/octet-stream` are stored as the server sees them, and a
// search by `image/png` finds the record.
const typed = `typed-${run}`;
await Deno.writeFile(`${work}/typed.eln`, await typedEln(`Typed ${run}`));
await step(["misc", "import-eln", "-p", `${work}/typed.eln`], { code: 0 });
await step(["records", "show-info", "-R", typed, "-l", "--json"], {
  code: 0,
  check: json((v) => {
    const files = (v as { files?: { name: string; mimetype: string }[] }).files ?? [];
    const types = Object.fromEntries(files.map((file) => [file.name, file.mimetype]));
    return types["plot.png"] === "image/png" && types["raw.gz"] === "application/gzip"
      ? null
      : `MIME types ${JSON.stringify(types)}`;
  }),
});
// The search index learns a record's files after the import's last upload: a bounded wait.
const byMime = ["records", "get-records", "-m", "image/png", "-q", typed, "--json"];
const pngFound = finds(typed, "the PNG's record is not found by its MIME type");
await settle(byMime, pngFound);
await step(byMime, { code: 0, check: pngFound });
await step(["records", "delete", "-R", typed, "--i-am-sure"], { code: 0 });

// A private CA with environment-only configuration (issue 31): the real server behind a TLS
// proxy whose certificate a throwaway CA signed; REPO_APY_CA_BUNDLE trusts it, without it the
// error names that variable (the config file's ca_bundle is not read then).
{
  await using proxy = await tlsProxy(host);
  const envOnly = { REPO_APY_HOST: proxy.url, REPO_APY_PAT: pat };
  await step(["misc", "get-repo-info", "--json"], {
    code: 1,
    env: envOnly,
    check: (r) => r.stderr.includes("REPO_APY_CA_BUNDLE") ? null : "the error names no variable",
  });
  await step(["misc", "get-repo-info", "--json"], {
    code: 0,
    env: { ...envOnly, REPO_APY_CA_BUNDLE: proxy.caPath },
    check: has("1.13.0"),
  });
  await step(["records", "show-info", "-R", rec, "--json"], {
    code: 0,
    env: { ...envOnly, REPO_APY_VERIFY: "false" },
    check: has(rec),
  });
}

// ---- folder trees and sync -----------------------------------------------------------
// File names with `/` (a folder tree in one record), with a chunked file (55 MB: above the
// 50 MB boundary, six chunks) inside the tree, so sync compares the server's chunk checksum.
const rect = `rs-${run}-tree`;
const rtid = id(await step(["records", "create", "-i", rect, "-p"], { code: 0 }));
const tree = `${work}/tree`;
const treeFiles: Record<string, string> = {
  "notes.txt": "notes\n",
  "raw/run1.txt": "run 1\n",
  "raw/deep/run2.txt": "run 2\n",
};
await Deno.mkdir(`${tree}/raw/deep`, { recursive: true });
for (const [n, text] of Object.entries(treeFiles)) await Deno.writeTextFile(`${tree}/${n}`, text);
await writeTestFile(`${tree}/raw/big.bin`, 55 * 1024 * 1024);

/** The record's file names, sorted and comma-joined (from `show-info -l --json`). */
const fileNames = (v: unknown) =>
  ((v as { files?: { name: string }[] }).files ?? []).map((f) => f.name).sort().join(",");
const namesAre = (want: string) =>
  json((v) => (fileNames(v) === want ? null : `files ${fileNames(v)}`));
/** Whether each local file (relative to `dir`) holds the text given; null when all do. */
async function sameTexts(dir: string, want: Record<string, string | null>): Promise<string | null> {
  for (const [n, text] of Object.entries(want)) {
    let got: string | null = null;
    try {
      got = await Deno.readTextFile(`${dir}/${n}`);
    } catch { /* missing */ }
    if (got !== text) return `${dir.slice(work.length + 1)}/${n}: ${JSON.stringify(got)}`;
  }
  return null;
}
/** Whether two local files have the same bytes. */
async function sameBytes(a: string, b: string): Promise<boolean> {
  try {
    const [x, y] = await Promise.all([Deno.readFile(a), Deno.readFile(b)]);
    return x.length === y.length && x.every((v, i) => v === y[i]);
  } catch {
    return false;
  }
}
/** A step's check run after it (local files written by the step), reported on its own line. */
async function checkLocal(label: string, problem: Promise<string | null>): Promise<void> {
  total++;
  const p = await problem;
  if (p === null) {
    asExpected++;
    console.log(`ok    ${label} | expected the files, got the files`);
  } else {
    unexpected.push(label);
    console.log(`DIFF  ${label} | expected the files, got ${p}`);
  }
}
type SyncJson = {
  dryRun?: boolean;
  complete?: boolean;
  counts: Record<string, { files: number }>;
  done?: { action: string; name: string }[];
};
/** A sync's `--json` check: the plan's file counts per action (those not named: 0). */
const counts = (want: Record<string, number>, dryRun = false) =>
  json((v) => {
    const o = v as SyncJson;
    if ((o.dryRun === true) !== dryRun) return `dryRun ${o.dryRun}`;
    if (!dryRun && o.complete !== true) return `complete ${o.complete}`;
    for (const k of ["upload", "download", "replace", "delete", "skip", "extra"]) {
      const got = o.counts[k]?.files ?? 0;
      if (got !== (want[k] ?? 0)) return `${k} ${got}, expected ${want[k] ?? 0}`;
    }
    return null;
  });

const treeNames = "notes.txt,raw/big.bin,raw/deep/run2.txt,raw/run1.txt";
await step(["records", "add-files", "-R", rect, "-n", tree, "--recursive"], { code: 0 });
await step(["records", "show-info", "-R", rect, "-l", "--json"], {
  code: 0,
  check: namesAre(treeNames),
});
// One file by a name with `/` (GET /records/<id>/files/name/raw/deep/run2.txt).
await step(
  ["records", "get-file", "-R", rect, "-n", "raw/deep/run2.txt", "-p", `${work}/tree-one`],
  {
    code: 0,
  },
);
await checkLocal(
  "records get-file -n raw/deep/run2.txt: written under raw/deep/",
  sameTexts(`${work}/tree-one`, { "raw/deep/run2.txt": "run 2\n" }),
);
await Deno.mkdir(`${work}/tree-apy`, { recursive: true });
await step(["records", "get-file", "-R", rect, "-p", `${work}/tree-down`], {
  code: 0,
  apy: ["records", "get-file", "-r", rtid, "-p", `${work}/tree-apy`],
});
await checkLocal(
  "records get-file (tree): subfolders recreated, 55 MB chunked file same bytes",
  (async () =>
    await sameTexts(`${work}/tree-down`, treeFiles) ??
      (await sameBytes(`${tree}/raw/big.bin`, `${work}/tree-down/raw/big.bin`)
        ? null
        : "raw/big.bin differs"))(),
);
await step(["records", "get-file", "-R", rect, "-p", `${work}/tree-flat`, "--flat"], { code: 0 });
await checkLocal(
  "records get-file --flat: '/' in names replaced by '_'",
  sameTexts(`${work}/tree-flat`, {
    "notes.txt": "notes\n",
    "raw_run1.txt": "run 1\n",
    "raw_deep_run2.txt": "run 2\n",
  }),
);

// sync --to: a new folder gets the tree; a second run transfers nothing.
const mirror = `${work}/tree-sync`;
await step(["records", "sync", "-R", rect, "--to", mirror, "--json"], {
  code: 0,
  check: counts({ download: 4 }),
});
await checkLocal(
  "records sync --to: the tree, 55 MB chunked file same bytes",
  (async () =>
    await sameTexts(mirror, treeFiles) ??
      (await sameBytes(`${tree}/raw/big.bin`, `${mirror}/raw/big.bin`)
        ? null
        : "raw/big.bin differs"))(),
);
await step(["records", "sync", "-R", rect, "--to", mirror, "--json"], {
  code: 0,
  check: counts({ skip: 4 }),
});
// The source folder is unchanged: sync --from finds every file equal by size and checksum
// (the chunked one by the server's composite checksum).
await step(["records", "sync", "-R", rect, "--from", tree, "--json"], {
  code: 0,
  check: counts({ skip: 4 }),
});

// Change the folder: one file changed, one new, one gone.
await Deno.writeTextFile(`${tree}/notes.txt`, "notes, changed\n");
await Deno.writeTextFile(`${tree}/raw/new.txt`, "new\n");
await Deno.remove(`${tree}/raw/run1.txt`);
await step(["records", "sync", "-R", rect, "--from", tree, "--dry-run", "--json"], {
  code: 0,
  check: counts({ upload: 1, replace: 1, skip: 2, extra: 1 }, true),
});
await step(["records", "sync", "-R", rect, "--from", tree, "--delete", "--dry-run", "--json"], {
  code: 0,
  check: counts({ upload: 1, replace: 1, skip: 2, delete: 1 }, true),
});
await step(["records", "show-info", "-R", rect, "-l", "--json"], {
  code: 0,
  check: namesAre(treeNames),
});
// --delete with nobody to ask (stdin not a terminal) and no -y: refused, nothing changed.
await step(["records", "sync", "-R", rect, "--from", tree, "--delete"], { code: 1 });
await step(["records", "sync", "-R", rect, "--from", tree, "--delete", "-y", "--json"], {
  code: 0,
  check: counts({ upload: 1, replace: 1, skip: 2, delete: 1 }),
});
await step(["records", "show-info", "-R", rect, "-l", "--json"], {
  code: 0,
  check: namesAre("notes.txt,raw/big.bin,raw/deep/run2.txt,raw/new.txt"),
});
await step(["records", "sync", "-R", rect, "--to", mirror, "--delete", "-y", "--json"], {
  code: 0,
  check: counts({ download: 1, replace: 1, skip: 2, delete: 1 }),
});
await checkLocal(
  "records sync --to --delete: the folder like the record",
  sameTexts(mirror, {
    "notes.txt": "notes, changed\n",
    "raw/new.txt": "new\n",
    "raw/deep/run2.txt": "run 2\n",
    "raw/run1.txt": null,
  }),
);
await step(["records", "sync", "-R", rect, "--from", tree, "--delete", "-y"], { code: 0 });
await step(["records", "delete", "-R", rect, "--i-am-sure"], { code: 0 });

// ---- projects: a collection moved through a folder into another user's collection ----------
// Alice's project (a collection with a child collection, records with typed extras, links and
// files) goes up from a folder in two shards at once, down into a folder, and, once her records
// and collections are purged, up again as bob's: bob's collection then goes down into a folder
// equal to the first, byte for byte.
const proj = `rs-${run}-proj`;
await Deno.writeTextFile(
  `${work}/home/.repoconfig`,
  `\n[bob]\nhost = "${host}"\npat = "${tokens.KADI_TOKEN2 ?? ""}"\n`,
  { append: true },
);
const projSrc = `${work}/project`;
const projFiles: Record<string, string> = {
  ".collection.json": JSON.stringify({ title: "Real project", tags: ["real"] }),
  "s1/.record.json": JSON.stringify({
    identifier: `${proj}-s1`,
    title: "Sample 1",
    tags: ["steel"],
    type: "sample",
    license: "CC-BY-4.0",
    extras: [
      { key: "temperature", type: "float", value: 1.0, unit: "K" },
      { key: "count", type: "int", value: 3 },
      { key: "cond", type: "dict", value: [{ key: "p", type: "float", value: 2.0 }] },
    ],
    links: [{ name: "cut from", record_to: { identifier: `${proj}-s2` } }],
  }),
  "s1/raw/run1.csv": "1,2\n",
  "s2/.record.json": JSON.stringify({ identifier: `${proj}-s2`, title: "Sample 2" }),
  "s2/notes.txt": "notes\n",
  "wk/.collection.json": JSON.stringify({ identifier: `${proj}-wk`, title: "Week" }),
  "wk/s3/.record.json": JSON.stringify({
    identifier: `${proj}-s3`,
    extras: [{ key: "ok", type: "bool", value: true }],
    links: [{ name: "compare", record_to: { identifier: `${proj}-s1` } }],
  }),
  "wk/s3/data.txt": "data\n",
};
for (const [n, text] of Object.entries(projFiles)) {
  await Deno.mkdir(`${projSrc}/${n}`.replace(/\/[^/]*$/, ""), { recursive: true });
  await Deno.writeTextFile(`${projSrc}/${n}`, text);
}
type CollJson = {
  complete: boolean;
  collections: { id: number; identifier: string }[];
  records: {
    id: number;
    identifier: string;
    created: boolean;
    changed: string[];
    added: boolean;
    linked: string[];
    wrote: boolean;
    files?: { done: number };
  }[];
};
/** A `collections sync --json` check: complete, and each record passing `each`. */
const synced = (each: (r: CollJson["records"][number]) => string | null, count = 3) =>
  json((v) => {
    const o = v as CollJson;
    if (!o.complete) return "not complete";
    if (o.records.length !== count) return `${o.records.length} records`;
    for (const r of o.records) {
      const p = each(r);
      if (p !== null) return `${r.identifier}: ${p}`;
    }
    return null;
  });
const noChange = (r: CollJson["records"][number]) =>
  r.created || r.changed.length > 0 || r.added || r.linked.length > 0 || r.wrote ||
    (r.files?.done ?? 0) > 0
    ? `changed: ${JSON.stringify(r)}`
    : null;
// Two shards at once: each record once, the collection once.
const shards = await Promise.all(
  ["1/2", "2/2"].map((shard) =>
    step(["collections", "sync", "-C", proj, "--from", projSrc, "--shard", shard, "--json"], {
      code: 0,
    })
  ),
);
const shardRecords = shards.flatMap((r) => (JSON.parse(r.stdout) as CollJson).records);
await checkLocal(
  "collections sync --shard 1/2 and 2/2 at once: every record synced by one shard",
  Promise.resolve(
    shardRecords.map((r) => r.identifier).sort().join(",") ===
        [`${proj}-s1`, `${proj}-s2`, `${proj}-s3`].join(",")
      ? null
      : `records ${shardRecords.map((r) => r.identifier).join(",")}`,
  ),
);
await step(["collections", "sync", "-C", proj, "--from", projSrc, "--json"], {
  code: 0,
  check: synced(noChange),
});
await step(["collections", "show-info", "-C", `${proj}-wk`, "-r"], {
  code: 0,
  check: has(`${proj}-s3`),
});
const moved = `${work}/project-moved`;
const down = await step(["collections", "sync", "-C", proj, "--to", moved, "--json"], {
  code: 0,
  check: synced((r) => r.wrote ? null : "no .record.json"),
});
await step(["collections", "sync", "-C", proj, "--to", moved, "--json"], {
  code: 0,
  check: synced(noChange),
});
await checkLocal(
  "collections sync --to: a folder per record named by its identifier, files, links, floats",
  (async () => {
    const s1 = `${moved}/${proj}-s1/.record.json`;
    const text = await Deno.readTextFile(s1).catch(() => "");
    return await sameTexts(moved, {
      [`${proj}-s1/raw/run1.csv`]: "1,2\n",
      [`${proj}-wk/${proj}-s3/data.txt`]: "data\n",
    }) ?? (text.includes('"value": 1.0') && text.includes(`"identifier": "${proj}-s2"`)
      ? null
      : `${s1} lacks the float or the link`);
  })(),
);
// Alice hands the project over: her records and collections go, purged (identifiers freed).
const moving = JSON.parse(down.stdout) as CollJson;
for (const r of moving.records) {
  await step(["records", "delete", "-r", String(r.id), "--i-am-sure"], { code: 0 });
  await step(["misc", "purge-resource", "-t", "record", "-i", String(r.id)], { code: 0 });
}
for (const c of [...moving.collections].reverse()) {
  await step(["collections", "delete", "-c", String(c.id), "--i-am-sure"], { code: 0 });
  await step(["misc", "purge-resource", "-t", "collection", "-i", String(c.id)], { code: 0 });
}
// Records are purged by the worker: wait until bob's dry run finds every identifier free.
for (let i = 0; i < 60; i++) {
  const dry = await cli([
    "collections",
    "sync",
    "-I",
    "bob",
    "-C",
    proj,
    "--from",
    moved,
    "--dry-run",
  ]);
  if (dry.code === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 2000));
}
await step(["collections", "sync", "-I", "bob", "-C", proj, "--from", moved, "--json"], {
  code: 0,
  check: synced((r) => r.created && r.added ? null : "not created"),
});
await step(["collections", "sync", "-I", "bob", "-C", proj, "--from", moved, "--json"], {
  code: 0,
  check: synced(noChange),
});
const back = `${work}/project-back`;
await step(["collections", "sync", "-I", "bob", "-C", proj, "--to", back], { code: 0 });
/** Every file below `root` (the sync's caches left out) with its text. */
async function texts(root: string, prefix = ""): Promise<[string, string][]> {
  const found: [string, string][] = [];
  for await (const entry of Deno.readDir(`${root}/${prefix}`)) {
    const path = `${prefix}${entry.name}`;
    if (entry.name === ".repo-apy-sync-cache.json") continue;
    if (entry.isDirectory) found.push(...await texts(root, `${path}/`));
    else found.push([path, await Deno.readTextFile(`${root}/${path}`)]);
  }
  return found.sort((a, b) => a[0] < b[0] ? -1 : 1);
}
await checkLocal(
  "collections sync: alice's project, moved through a folder into bob's, comes back the same",
  (async () => {
    const [a, b] = [await texts(moved), await texts(back)];
    const differ = a.filter(([n, t], i) => b[i]?.[0] !== n || b[i]?.[1] !== t).map(([n]) => n);
    return a.length === b.length && differ.length === 0 ? null : `differ: ${differ.join(", ")}`;
  })(),
);

// ---- delete, trash, restore, purge -----------------------------------------------------
await step(["records", "delete", "-R", rec2, "--i-am-sure"], { code: 0 });
await step(["records", "show-info", "-r", rid2], { code: 1 });
await step(["misc", "get-deleted-resources", "--json"], { code: 0, check: has(rec2) });
await step(["misc", "restore-resource", "-t", "record", "-i", rid2], { code: 0 });
await step(["records", "show-info", "-r", rid2], { code: 0 });
await step(["records", "delete", "-R", rec2, "--i-am-sure"], { code: 0 });
await step(["misc", "purge-resource", "-t", "record", "-i", rid2], { code: 0 });
await step(["misc", "restore-resource", "-t", "record", "-i", rid2], { code: 1 });
await step(["templates", "delete", "-T", tpl, "--i-am-sure"], { code: 0 });
await step(["collections", "delete", "-C", col2, "--i-am-sure"], { code: 0 });
await step(["groups", "delete", "-G", grp, "--i-am-sure"], { code: 0 });
await step(["records", "delete-files", "-R", rec, "--i-am-sure"], { code: 0 });
await step(["records", "delete-all-metadata", "-R", rec, "--i-am-sure"], { code: 0 });
await step(["records", "show-info", "-r", "999999"], { code: 1 });

for (const u of unexpected) console.error(`unexpected: ${u}`);
console.log(
  `real-server: ${total} invocations, ${asExpected} as expected, ${unexpected.length} unexpected`,
);
