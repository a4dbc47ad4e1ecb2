// deno-lint-ignore-file no-console -- a check script that reports to the terminal
// Runs every invocation of _cases.ts twice, each time against a fresh local server holding the
// fixture of _fixture.ts: once with kadi-apy 0.51.0 (the Python client, `--kadi-apy <binary>`)
// and once with our CLI, each with its own config file in a temporary home. Compares the exit
// codes, the server state left behind and the files written, and prints a summary:
// invocations, equal, documented differences (KNOWN, docs/compatibility.md), undocumented ones.
// Exits 1 when there is an undocumented difference. Started by scripts/interop/run.sh.
//
//   deno run -A scripts/interop/compare.ts --kadi-apy /path/to/venv/bin/kadi-apy [-v] [filter]

import { fileURLToPath } from "node:url";
import { RepoManager } from "../../mod.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import { CASES, type InteropCase } from "./_cases.ts";
import { SECOND_USER, seed, snapshot } from "./_fixture.ts";
import { KNOWN } from "./known_differences.ts";
import { typedEln } from "../_files.ts";

const CLI = fileURLToPath(new URL("../../cli.ts", import.meta.url));
const PAT = "pat_interop_testuser_0123456789";

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
  state: string;
  files: string[];
}

type Client = "kadi-apy" | "repo-apy";

async function homeFor(client: Client, server: TestServer): Promise<string> {
  const home = await Deno.makeTempDir({ prefix: `interop-${client}-` });
  // A shell start-up file, as users have (kadi-apy's activate-autocompletion needs one).
  await Deno.writeTextFile(`${home}/.bashrc`, "");
  if (client === "kadi-apy") {
    await Deno.writeTextFile(
      `${home}/.kadiconfig`,
      `[global]\ndefault = local\n\n[local]\nhost = ${server.url}\npat = ${PAT}\n`,
      { mode: 0o600 },
    );
  } else {
    await Deno.writeTextFile(
      `${home}/.repoconfig`,
      `[global]\ndefault = "local"\n\n[local]\nhost = "${server.url}"\npat = "${PAT}"\n`,
      { mode: 0o600 },
    );
  }
  return home;
}

async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory) names.push(...await listFiles(`${dir}/${entry.name}`, `${entry.name}/`));
    else names.push(`${prefix}${entry.name}`);
  }
  return names.sort();
}

const CORPUS = new URL("../../../shared/corpus/eln/", import.meta.url);

/** A record of its own exported by the local server as RO-Crate (.eln), made once. */
const selfEln = async () => {
  await using server = await startServer();
  await using manager = new RepoManager({ host: server.url, pat: server.pat });
  const record = await manager.record({ identifier: "eln-src", create: true, title: "ELN source" });
  await record.uploadString("measured\n", "data.csv");
  await record.addMetadata([{ key: "mass", type: "float", value: 100 }]);
  const dir = await Deno.makeTempDir({ prefix: "interop-eln-" });
  const path = await record.export(dir, "ro-crate");
  const bytes = await Deno.readFile(path);
  await Deno.remove(dir, { recursive: true });
  return bytes;
};

async function elnBytes(source: string): Promise<Uint8Array> {
  if (source === "self") return await selfEln();
  if (source === "typed") return await typedEln("Typed files");
  return await Deno.readFile(new URL(source, CORPUS));
}

async function runOne(client: Client, kadiApy: string, test: InteropCase): Promise<Outcome> {
  await using server = await startServer({ pat: PAT, users: [SECOND_USER] });
  await seed(server);
  const home = await homeFor(client, server);
  const work = `${home}/work`;
  await Deno.mkdir(work);
  const given = Object.keys(test.files ?? {});
  if (test.eln !== undefined) {
    await Deno.writeFile(`${work}/crate.eln`, await elnBytes(test.eln));
    given.push("crate.eln");
  }
  for (const [name, text] of Object.entries(test.files ?? {})) {
    await Deno.writeTextFile(`${work}/${name}`, text);
  }
  const [command, args] = client === "kadi-apy"
    ? [kadiApy, test.args]
    : [Deno.execPath(), ["run", "--quiet", "-A", CLI, ...test.args]];
  const child = new Deno.Command(command, {
    args,
    cwd: work,
    clearEnv: true,
    env: {
      HOME: home,
      // The Python client runs itself by name (activate-autocompletion): its virtualenv first.
      PATH: `${kadiApy.replace(/\/[^/]*$/, "")}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
      NO_COLOR: "1",
      // Our CLI's dependencies are in the user's Deno cache, not in the temporary home.
      DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
    },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(test.stdin ?? "")).catch(() => {});
  await writer.close().catch(() => {});
  const timer = setTimeout(() => child.kill(), 60_000);
  const { code, stdout, stderr } = await child.output();
  clearTimeout(timer);
  const decoder = new TextDecoder();
  const files = (await listFiles(work)).filter((name) => !given.includes(name));
  const state = await snapshot(server);
  await Deno.remove(home, { recursive: true });
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr), state, files };
}

/** The first lines where two snapshots differ. */
function stateDiff(a: string, b: string): string {
  const left = a.split("\n");
  const right = b.split("\n");
  const out: string[] = [];
  for (let i = 0; i < Math.max(left.length, right.length) && out.length < 6; i++) {
    if (left[i] !== right[i]) {
      out.push(`      kadi-apy: ${left[i] ?? ""}\n      repo-apy: ${right[i] ?? ""}`);
    }
  }
  return out.join("\n");
}

function tail(text: string): string {
  return text.trim().split("\n").slice(-2).join(" | ").slice(0, 300);
}

async function main(argv: string[]): Promise<number> {
  const index = argv.indexOf("--kadi-apy");
  const kadiApy = index >= 0 ? argv[index + 1] : undefined;
  if (kadiApy === undefined) {
    console.error("usage: compare.ts --kadi-apy <path of the kadi-apy binary> [-v] [filter]");
    return 2;
  }
  const verbose = argv.includes("-v");
  const filter = argv.filter((arg, i) => !arg.startsWith("-") && argv[i - 1] !== "--kadi-apy")[0];
  const counts = { invocations: 0, equal: 0, documented: 0, undocumented: 0 };
  const used = new Set<string>();
  for (const test of CASES) {
    const name = test.name ?? test.args.join(" ");
    if (filter !== undefined && !name.includes(filter)) continue;
    counts.invocations++;
    const theirs = await runOne("kadi-apy", kadiApy, test);
    const ours = await runOne("repo-apy", kadiApy, test);
    const same = theirs.code === ours.code && theirs.state === ours.state &&
      theirs.files.join() === ours.files.join();
    const known = KNOWN[name];
    if (known !== undefined) used.add(name);
    let verdict: string;
    if (same) {
      counts.equal++;
      verdict = known === undefined ? "equal" : "equal (a documented difference no longer shows)";
    } else if (known !== undefined) {
      counts.documented++;
      verdict = `documented: ${known}`;
    } else {
      counts.undocumented++;
      verdict = "UNDOCUMENTED";
    }
    console.log(`${same ? "=" : known === undefined ? "!" : "~"} ${name}  [${verdict}]`);
    if (!same && (known === undefined || verbose)) {
      console.log(`    exit codes: kadi-apy ${theirs.code}, repo-apy ${ours.code}`);
      console.log(`    kadi-apy: ${tail(theirs.stdout + theirs.stderr)}`);
      console.log(`    repo-apy: ${tail(ours.stdout + ours.stderr)}`);
      if (theirs.files.join() !== ours.files.join()) {
        console.log(`    files: kadi-apy [${theirs.files}], repo-apy [${ours.files}]`);
      }
      if (theirs.state !== ours.state) console.log(stateDiff(theirs.state, ours.state));
    }
  }
  for (const name of Object.keys(KNOWN)) {
    if (!used.has(name) && filter === undefined) console.log(`? documented but not run: ${name}`);
  }
  console.log(
    `\ninvocations: ${counts.invocations}, equal: ${counts.equal}, documented differences: ${counts.documented}, undocumented differences: ${counts.undocumented}`,
  );
  return counts.undocumented === 0 ? 0 : 1;
}

Deno.exit(await main(Deno.args));
