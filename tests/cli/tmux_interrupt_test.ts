// Stop, run again, finish: in a real 80-column terminal (tmux), Ctrl-C interrupts a download of
// one big file, a download of a tree, a folder upload, a sync each way and an ELN import, over a
// link the local server slows down; then the same command runs again, and (but the import) once
// more. The outcome is checked,
// not the time: exit 130 with one honest line, then exit 0 with every file once and identical,
// then exit 0 with nothing transferred. The time from Ctrl-C to the shell prompt is measured
// and printed for the record (docs/compatibility.md quotes it), never asserted.

import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { tempDir } from "../_temp.ts";
import { simpleCrate, zipBytes } from "../import/_eln.ts";
import { tempHome, writeLocalConfig } from "./_run.ts";
import { cliSession, screenProblems, skipWithoutTmux } from "./_tmux.ts";
import { digest, recordTree, slowLink } from "./_interrupt.ts";
import { randomBytes } from "../transfer/_helpers.ts";

const skipped = skipWithoutTmux("tmux_interrupt_test.ts");

/** A slow link: a few seconds for each transfer below (two files at once). */
const RATE = 400_000;
const TREE_FILES = 12;

/** The files below `dir`, relative path to digest, in name order. */
async function localTree(dir: string, prefix = ""): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  const entries = [...Deno.readDirSync(`${dir}/${prefix}`)].sort((a, b) =>
    a.name.localeCompare(b.name)
  );
  for (const entry of entries) {
    const name = `${prefix}${entry.name}`;
    if (entry.isDirectory) Object.assign(found, await localTree(dir, `${name}/`));
    else found[name] = await digest(await Deno.readFile(`${dir}/${name}`));
  }
  return found;
}

/** Sources: relative path to content. */
type Files = Record<string, Uint8Array<ArrayBuffer>>;

async function digests(files: Files): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const name of Object.keys(files).sort()) result[name] = await digest(files[name]!);
  return result;
}

/**
 * The screen's text as one line: messages are broken into rows at spaces (a long path by the
 * terminal), so what they say is matched across rows.
 */
function flat(text: string): string {
  return text.replaceAll("\n", " ");
}

Deno.test({
  name:
    "Ctrl-C stops get-file, add-files, sync up and down, import-eln at 80 columns; the same command again finishes with every file once",
  ignore: skipped,
  sanitizeResources: false,
  async fn() {
    await using server = await startServer();
    await using manager = new RepoManager({ host: server.url, pat: server.pat });
    await using home = await tempHome();
    await using dir = await tempDir();
    await writeLocalConfig(home.configPath, server.url, server.pat);
    await using session = await cliSession(home.dir, dir.path);
    const { tmux, cli, start } = session;
    const timings: string[] = [];

    /**
     * Runs `command` until a row matches `when`, presses Ctrl-C, and checks the interrupted run:
     * exit 130, a clean screen, the one `Interrupted` line.
     */
    const interrupt = async (label: string, command: string, when: RegExp | (() => boolean)) => {
      slowLink(server, RATE);
      const finish = await start(command);
      if (when instanceof RegExp) await tmux.until(when);
      else {
        // What the server saw (nothing on the screen shows it).
        for (let poll = 0; poll < 1200 && !when(); poll++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      const pressed = performance.now();
      await tmux.keys("C-c");
      const run = await finish();
      const stopped = { ...run, text: flat(run.text) };
      timings.push(`${label}: ${Math.round(performance.now() - pressed)} ms`);
      server.clearFaults();
      for (const rows of stopped.screens) assertEquals(screenProblems(rows), [], rows.join("\n"));
      assertEquals(stopped.exit, 130, stopped.text);
      assertMatch(run.text, /(^|\n)(\^C)?Interrupted/);
      assertEquals(run.text.split("\n").filter((row) => /Interrupted/.test(row)).length, 1);
      return stopped.text;
    };
    /** Runs `command` to its end; it must succeed. */
    const finish = async (command: string) => {
      const run = await (await start(command))();
      assertEquals(run.exit, 0, run.text);
      return flat(run.text);
    };

    // One big file.
    const download = await manager.record({ identifier: "down", create: true });
    const big = randomBytes(3_000_000, 1);
    await download.uploadFile(ReadableStream.from([big]), {
      fileName: "big.bin",
      size: big.length,
    });
    const getBig = `${cli} records get-file -R down -n big.bin -p '${dir.path}/big'`;
    const bigStopped = await interrupt("get-file, one file", getBig, /big\.bin .*\d+%/);
    assertMatch(bigStopped, /Interrupted: the partial file .* was kept; run the same command/);
    // A second point: the resumed download interrupted again, past half-way.
    await interrupt("get-file, one file, resumed", getBig, /big\.bin .* [5-9]\d%/);
    assertStringIncludes(await finish(getBig), "Resuming the download of 'big.bin'");
    assertStringIncludes(await finish(getBig), "Already here:");
    assertEquals(await localTree(`${dir.path}/big`), { "big.bin": await digest(big) });

    // A tree of files.
    const tree = await manager.record({ identifier: "tree", create: true });
    const treeFiles: Files = {};
    for (let index = 0; index < TREE_FILES; index++) {
      const name = `raw/run ${index % 3}/part ${index}.dat`;
      treeFiles[name] = randomBytes(300_000, 10 + index);
      const data = treeFiles[name];
      await tree.uploadFile(ReadableStream.from([data]), { fileName: name, size: data.length });
    }
    const getTree = `${cli} records get-file -R tree -P '*.dat' -p '${dir.path}/tree'`;
    const treeStopped = await interrupt("get-file, a tree", getTree, /[1-9]\d*\/12 files/);
    assertMatch(treeStopped, /Interrupted: [1-9]\d* of 12 files (is|are) here;/);
    assertMatch(
      treeStopped,
      /run the same command again to (resume the download|finish the job): /,
    );
    await finish(getTree);
    assertStringIncludes(await finish(getTree), `${TREE_FILES} already here`);
    assertEquals(await localTree(`${dir.path}/tree`), await digests(treeFiles));

    // A folder upload.
    const upFiles: Files = {};
    for (let index = 0; index < TREE_FILES; index++) {
      const name = `sub ${index % 2}/file ${index}.bin`;
      upFiles[name] = randomBytes(300_000, 40 + index);
      await Deno.mkdir(`${dir.path}/up/sub ${index % 2}`, { recursive: true });
      await Deno.writeFile(`${dir.path}/up/${name}`, upFiles[name]);
    }
    await manager.record({ identifier: "up", create: true });
    const addFiles =
      `${cli} records add-files -R up -n '${dir.path}/up' --recursive --concurrency 2`;
    const upStopped = await interrupt("add-files --recursive", addFiles, /[1-9]\d*\/12 files/);
    assertStringIncludes(upStopped, "run the same command again");
    assert(!upStopped.includes("partial file"), upStopped);
    // A second point: the same command interrupted again, later on.
    await interrupt("add-files --recursive, again", addFiles, /\b[5-9]\/\d+ files/);
    await finish(addFiles);
    assertStringIncludes(await finish(addFiles), `All ${TREE_FILES} files are already in`);
    const up = await manager.record({ identifier: "up" });
    assertEquals(await recordTree(up), await digests(upFiles));

    // A sync up into a new record, and down into a new folder.
    await manager.record({ identifier: "sync-up", create: true });
    const syncUp = `${cli} records sync -R sync-up --from '${dir.path}/up' --concurrency 2`;
    const syncUpStopped = await interrupt("sync --from", syncUp, /[1-9]\d*\/12 files/);
    assert(!syncUpStopped.includes("partial file"), syncUpStopped);
    await finish(syncUp);
    await finish(syncUp);
    assertEquals(
      await recordTree(await manager.record({ identifier: "sync-up" })),
      await digests(upFiles),
    );
    const syncDown = `${cli} records sync -R tree --to '${dir.path}/synced' --concurrency 2`;
    await interrupt("sync --to", syncDown, /[1-9]\d*\/12 files/);
    await finish(syncDown);
    await finish(syncDown);
    const synced = await localTree(`${dir.path}/synced`);
    // The sync's own state (its checksum cache) may sit beside the files.
    for (const name of Object.keys(synced)) if (name.startsWith(".")) delete synced[name];
    assertEquals(synced, await digests(treeFiles));

    // An ELN import: Ctrl-C while its file goes up; the same command again imports it once.
    const eln = `${dir.path}/crate.eln`;
    const content = "0123456789abcdef".repeat(150_000);
    await Deno.writeFile(eln, await zipBytes(simpleCrate("crate", { content })));
    const importEln = `${cli} misc import-eln -p '${eln}'`;
    const before = server.log.length;
    // The record exists and its file is going up (one request: no bar moves meanwhile).
    const uploading = () => server.log.slice(before).some((entry) => entry.method === "PUT");
    await interrupt("misc import-eln", importEln, uploading);
    await finish(importEln);
    const records =
      (await manager.transport.json<{ items: { id: number; title: string }[] }>("GET", "/records"))
        .items.filter((item) => item.title === "Experiment");
    assertEquals(records.length, 1);
    const imported = await manager.record({ id: records[0]!.id });
    assertEquals(await recordTree(imported), {
      "data.txt": await digest(new TextEncoder().encode(content)),
    });

    Deno.stderr.writeSync(
      new TextEncoder().encode(`Ctrl-C to the shell prompt: ${timings.join("; ")}\n`),
    );
  },
});
