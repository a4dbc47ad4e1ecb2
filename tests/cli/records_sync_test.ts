// `records sync`, `add-files --recursive` and `get-file` with trees, against the local server.
import { fileURLToPath } from "node:url";
import { assertEquals, assertMatch, assertNotIncludes, assertStringIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { createRecord, fileNames, ok, repo, tempDir } from "./_records.ts";
import { cliPermissions, runCli, tempHome, writeLocalConfig } from "./_run.ts";
import { shellQuote, shellWords } from "../_shell.ts";

async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    const path = `${root}/${name}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
}

/** Files below `root`, relative with `/`, sorted (dot-files left out). */
async function listTree(root: string, prefix = ""): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(`${root}/${prefix}`)) {
    if (entry.name.startsWith(".")) continue;
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory) found.push(...await listTree(root, `${path}/`));
    else found.push(path);
  }
  return found.sort();
}

const TREE = { "a.txt": "a", "raw/run1.csv": "1", "raw/deep/run2.csv": "2" };

Deno.test("records add-files --recursive uploads the tree; get-file recreates it, --flat keeps one level", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  await writeTree(`${dir.path}/src`, TREE);
  const id = await createRecord(server, "tree");
  await ok(server, ["add-files", "-r", String(id), "-n", `${dir.path}/src`, "--recursive"]);
  assertEquals(await fileNames(server, id), Object.keys(TREE).sort());
  await ok(server, ["get-file", "-r", String(id), "-p", `${dir.path}/out`]);
  assertEquals(await listTree(`${dir.path}/out`), Object.keys(TREE).sort());
  await ok(server, ["get-file", "-r", String(id), "-p", `${dir.path}/flat`, "--flat"]);
  assertEquals(await listTree(`${dir.path}/flat`), ["a.txt", "raw_deep_run2.csv", "raw_run1.csv"]);
  const plain = await repo(server, [
    "records",
    "add-files",
    "-r",
    String(id),
    "-n",
    `${dir.path}/src`,
    "--follow-symlinks",
  ]);
  assertEquals(plain.code, 2);
});

Deno.test("records sync needs exactly one of --from and --to", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = String(await createRecord(server, "usage"));
  const none = await repo(server, ["records", "sync", "-r", id]);
  assertEquals(none.code, 2);
  assertStringIncludes(none.stderr, "--from");
  const both = await repo(server, [
    "records",
    "sync",
    "-r",
    id,
    "--from",
    dir.path,
    "--to",
    dir.path,
  ]);
  assertEquals(both.code, 2);
  const help = await repo(server, ["records", "sync", "--help"]);
  assertStringIncludes(help.stdout, "One direction per run");
  assertStringIncludes(help.stdout, "CANNOT be restored");
});

Deno.test("records sync --dry-run --json prints the plan the run then carries out; a re-sync does nothing", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  await writeTree(dir.path, TREE);
  const id = String(await createRecord(server, "plan"));
  const dry = await ok(server, ["sync", "-r", id, "--from", dir.path, "--dry-run", "--json"]);
  const plan = JSON.parse(dry.stdout);
  assertEquals(plan.dryRun, true);
  assertEquals(plan.counts.upload.files, 3);
  assertEquals(await fileNames(server, Number(id)), []);
  const run = await ok(server, ["sync", "-r", id, "--from", dir.path, "--json"]);
  const result = JSON.parse(run.stdout);
  assertEquals(result.complete, true);
  assertEquals(result.done, plan.actions);
  assertEquals(await fileNames(server, Number(id)), Object.keys(TREE).sort());
  const again = await ok(server, ["sync", "-r", id, "--from", dir.path]);
  // The closing line is a status message: stderr, stdout stays for data.
  assertStringIncludes(again.stderr, "Synced: skip 3");
  assertEquals(again.stdout, "");
  const text = await ok(server, ["sync", "-r", id, "--to", `${dir.path}/copy`, "--dry-run"]);
  assertStringIncludes(text.stdout, "Dry run: would download 'raw/deep/run2.csv'");
});

Deno.test("records sync --delete asks for -y/--yes when no one can answer, and deletes nothing without it", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  await writeTree(dir.path, { "keep.txt": "k" });
  const id = String(await createRecord(server, "delete"));
  await ok(server, ["add-string-as-file", "-r", id, "-s", "x", "-n", "remote-only.txt"]);
  const refused = await repo(server, ["records", "sync", "-r", id, "--from", dir.path, "--delete"]);
  assertEquals(refused.code, 1);
  assertStringIncludes(refused.stderr, "-y/--yes");
  assertEquals(await fileNames(server, Number(id)), ["remote-only.txt"]);
  await ok(server, ["sync", "-r", id, "--from", dir.path, "--delete", "--yes"]);
  assertEquals(await fileNames(server, Number(id)), ["keep.txt"]);
});

Deno.test("records sync lists what failed, exits 1, and the rerun finishes with 0", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  await writeTree(dir.path, TREE);
  const id = String(await createRecord(server, "partial"));
  server.addFault({ method: "PUT", path: /\/uploads\//, status: 500, nth: 2, times: 1 });
  const args = ["records", "sync", "-r", id, "--from", dir.path, "--concurrency", "1"];
  const failed = await repo(server, args);
  assertEquals(failed.code, 1);
  assertStringIncludes(failed.stderr, "Failed to upload 'raw/deep/run2.csv'");
  assertStringIncludes(failed.stderr, "run the same command again");
  assertNotIncludes(failed.stdout, "Failed");
  server.clearFaults();
  const rerun = await repo(server, args);
  assertEquals(rerun.code, 0, rerun.stderr);
  assertMatch(rerun.stderr, /(^|\n)Uploaded 'raw\/deep\/run2\.csv' \(1 B\)\n/);
  assertStringIncludes(rerun.stderr, "upload 1");
  assertEquals(rerun.stdout, "");
  assertEquals(await fileNames(server, Number(id)), Object.keys(TREE).sort());
});

Deno.test("records sync --to --delete never deletes local files when the listing fails", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  await writeTree(dir.path, { "mine.txt": "m" });
  const id = String(await createRecord(server, "listing"));
  server.addFault({ method: "GET", path: /\/files$/, status: 500, times: 100 });
  const run = await repo(server, ["records", "sync", "-r", id, "--to", dir.path, "--delete", "-y"]);
  assertEquals(run.code, 1);
  assertEquals(await listTree(dir.path), ["mine.txt"]);
});

/** Runs `bash -c script` and returns its stdout. */
async function sh(script: string, ...args: string[]): Promise<string> {
  const { stdout } = await new Deno.Command("bash", { args: ["-c", script, "bash", ...args] })
    .output();
  return new TextDecoder().decode(stdout);
}

Deno.test("records sync --delete on a terminal asks once with the count, and deletes on 'y'", async () => {
  await using server = await startServer();
  await using home = await tempHome();
  await writeLocalConfig(home.configPath, server.url, server.pat);
  const dir = `${home.dir}/data`;
  await writeTree(dir, { "keep.txt": "k" });
  const id = String(await createRecord(server, "terminal"));
  await ok(server, ["add-string-as-file", "-r", id, "-s", "x", "-n", "old-1.txt"]);
  await ok(server, ["add-string-as-file", "-r", id, "-s", "x", "-n", "old-2.txt"]);
  const socket = `repo-apy-sync-${crypto.randomUUID().slice(0, 8)}`;
  const denoDir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
  const cli = fileURLToPath(new URL("../../cli.ts", import.meta.url));
  const command = [
    `HOME=${shellQuote(home.dir)}`,
    `DENO_DIR=${shellQuote(denoDir)}`,
    "NO_COLOR=1",
    shellWords([Deno.execPath(), "run", "--quiet", ...cliPermissions(home.dir), cli]),
    `records sync -r ${id} --from ${shellQuote(dir)} --delete; echo "EXIT=$?"; sleep 30`,
  ].join(" ");
  await sh('tmux -L "$1" new-session -d -x 80 -y 24 "$2"', socket, command);
  try {
    const pane = () => sh('tmux -L "$1" capture-pane -p', socket);
    const waitFor = async (text: string) => {
      for (let i = 0; i < 600; i++) {
        const shown = await pane();
        if (shown.includes(text)) return shown;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`the terminal never showed '${text}':\n${await pane()}`);
    };
    const asked = await waitFor("[y/N]");
    assertStringIncludes(asked, "Delete 2 file(s)");
    assertStringIncludes(asked, "cannot be undone");
    // Asked before anything changes.
    assertEquals(await fileNames(server, Number(id)), ["old-1.txt", "old-2.txt"]);
    await sh('tmux -L "$1" send-keys y Enter', socket);
    const ended = await waitFor("EXIT=");
    assertStringIncludes(ended, "EXIT=0");
    assertEquals(await fileNames(server, Number(id)), ["keep.txt"]);
  } finally {
    await sh('tmux -L "$1" kill-server', socket);
  }
});

Deno.test("records sync --from --delete: an entry it cannot read (a FIFO) is named, nothing is deleted, exit 1", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  await writeTree(dir.path, { "keep.txt": "k" });
  await sh('mkfifo "$1"', `${dir.path}/data.bin`);
  const id = String(await createRecord(server, "fifo"));
  await ok(server, ["add-string-as-file", "-r", id, "-s", "d", "-n", "data.bin"]);
  await ok(server, ["add-string-as-file", "-r", id, "-s", "o", "-n", "old.txt"]);
  const run = await repo(server, [
    "records",
    "sync",
    "-r",
    id,
    "--from",
    dir.path,
    "--delete",
    "-y",
  ]);
  assertEquals(run.code, 1);
  assertStringIncludes(run.stderr, "Cannot sync 'data.bin': it is not a regular file");
  assertStringIncludes(run.stderr, "1 file(s) are not deleted: 1 problem(s)");
  assertEquals(await fileNames(server, Number(id)), ["data.bin", "keep.txt", "old.txt"]);
});

Deno.test("records sync --delete: an empty source deletes nothing unless --allow-empty-source; --max-delete holds back more", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = String(await createRecord(server, "guards"));
  await ok(server, ["add-string-as-file", "-r", id, "-s", "a", "-n", "a.txt"]);
  await ok(server, ["add-string-as-file", "-r", id, "-s", "b", "-n", "b.txt"]);
  const empty = `${dir.path}/empty`;
  await Deno.mkdir(empty);
  const args = ["records", "sync", "-r", id, "--from", empty, "--delete", "-y"];
  const dry = await repo(server, [...args, "--dry-run"]);
  assertEquals(dry.code, 1);
  assertStringIncludes(dry.stderr, "--allow-empty-source");
  const held = await repo(server, args);
  assertEquals(held.code, 1);
  assertStringIncludes(held.stderr, "the folder has no files");
  assertEquals(await fileNames(server, Number(id)), ["a.txt", "b.txt"]);
  const limited = await repo(server, [...args, "--allow-empty-source", "--max-delete", "1"]);
  assertEquals(limited.code, 1);
  assertStringIncludes(limited.stderr, "more than --max-delete 1");
  assertEquals(await fileNames(server, Number(id)), ["a.txt", "b.txt"]);
  await ok(server, ["sync", "-r", id, "--from", empty, "--delete", "-y", "--allow-empty-source"]);
  assertEquals(await fileNames(server, Number(id)), []);
});

Deno.test("records sync --to --delete --backup-dir moves replaced and deleted files there", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const out = `${dir.path}/out`;
  await writeTree(out, { "a.txt": "old", "mine.txt": "mine" });
  const id = String(await createRecord(server, "backup"));
  await ok(server, ["add-string-as-file", "-r", id, "-s", "new", "-n", "a.txt"]);
  const backup = `${dir.path}/backup`;
  await ok(server, ["sync", "-r", id, "--to", out, "--delete", "-y", "--backup-dir", backup]);
  assertEquals(await listTree(out), ["a.txt"]);
  assertEquals(await Deno.readTextFile(`${out}/a.txt`), "new");
  assertEquals(await listTree(backup), ["a.txt", "mine.txt"]);
  assertEquals(await Deno.readTextFile(`${backup}/a.txt`), "old");
  const wrongWay = await repo(server, [
    "records",
    "sync",
    "-r",
    id,
    "--from",
    out,
    "--backup-dir",
    backup,
  ]);
  assertEquals(wrongWay.code, 1);
  assertStringIncludes(wrongWay.stderr, "--backup-dir");
});

Deno.test("records sync keeps its cache in the user's cache folder: a synced folder holds exactly the user's files", async () => {
  await using server = await startServer();
  await using home = await tempHome();
  await writeLocalConfig(home.configPath, server.url, server.pat);
  const src = `${home.dir}/src`;
  await writeTree(src, TREE);
  const id = String(await createRecord(server, "cache"));
  const up = await runCli(home.dir, ["records", "sync", "-r", id, "--from", src]);
  assertEquals(up.code, 0, up.stderr);
  const out = `${home.dir}/out`;
  const down = await runCli(home.dir, ["records", "sync", "-r", id, "--to", out]);
  assertEquals(down.code, 0, down.stderr);
  const everything = (root: string) => sh('cd "$1" && find . -type f | sort', root);
  assertEquals(await everything(src), await everything(out));
  assertEquals((await everything(out)).trim().split("\n").length, 3);
  const caches = await sh('ls "$1"', `${home.dir}/.cache/repo-apy/sync`);
  assertEquals(caches.trim().split("\n").length, 2);
  // XDG_CACHE_HOME, where it may be read, names the cache folder.
  const xdg = `${home.dir}/xdg`;
  const again = await runCli(home.dir, ["records", "sync", "-r", id, "--from", src], {
    env: { XDG_CACHE_HOME: xdg },
    permissions: [
      ...cliPermissions(home.dir).filter((flag) => !flag.startsWith("--allow-env")),
      "--allow-env=REPO_APY_CONFIG,HOME,XDG_CACHE_HOME",
    ],
  });
  assertEquals(again.code, 0, again.stderr);
  assertEquals((await sh('ls "$1"', `${xdg}/repo-apy/sync`)).trim().split("\n").length, 1);
  // add-files --recursive of a synced folder uploads nothing of the sync's.
  const copy = String(await createRecord(server, "copy"));
  await ok(server, ["add-files", "-r", copy, "-n", out, "--recursive"]);
  assertEquals(await fileNames(server, Number(copy)), Object.keys(TREE).sort());
});

Deno.test("records get-file -P '*' -f: a file and a folder of one local name leave one out, named, exit 1, no partial file", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = String(await createRecord(server, "clash"));
  for (const name of ["a", "a/b", "..", "../x", "ok.txt"]) {
    await ok(server, ["add-string-as-file", "-r", id, "-s", `text of ${name}`, "-n", name]);
  }
  const out = `${dir.path}/out`;
  const run = await repo(server, ["records", "get-file", "-r", id, "-p", out, "-P", "*", "-f"]);
  assertEquals(run.code, 1);
  assertNotIncludes(run.stderr, "stopped early");
  assertStringIncludes(run.stderr, "2 file(s) were not downloaded");
  const all = await sh('cd "$1" && find . | sort', out);
  assertNotIncludes(all, ".part");
  assertStringIncludes(all, "./ok.txt");
});

Deno.test("records sync --from --delete: a subfolder it may not read is named, its record files stay, exit 1", async () => {
  await using server = await startServer();
  await using home = await tempHome();
  await writeLocalConfig(home.configPath, server.url, server.pat);
  const src = `${home.dir}/src`;
  await writeTree(src, { "top.txt": "t", "data/a.txt": "a" });
  const id = String(await createRecord(server, "denied"));
  await ok(server, ["add-string-as-file", "-r", id, "-s", "a", "-n", "data/a.txt"]);
  await ok(server, ["add-string-as-file", "-r", id, "-s", "o", "-n", "old.txt"]);
  // Works as root too: Deno refuses the read, as the file system would for another user.
  const run = await runCli(
    home.dir,
    ["records", "sync", "-r", id, "--from", src, "--delete", "-y"],
    {
      permissions: [...cliPermissions(home.dir), `--deny-read=${src}/data`],
    },
  );
  assertEquals(run.code, 1);
  assertStringIncludes(run.stderr, "Cannot sync 'data': this process may not read it");
  assertEquals(await fileNames(server, Number(id)), ["data/a.txt", "old.txt", "top.txt"]);
});
