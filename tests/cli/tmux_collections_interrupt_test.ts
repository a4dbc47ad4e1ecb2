// Stop, run again, finish, for a project: in a real 80-column terminal (tmux), Ctrl-C interrupts
// `collections sync --from` while record folders go up over a link the local server slows down,
// and `collections sync --to` while they come down; the same command then finishes, and once
// more changes nothing. The outcome is checked, never the time: exit 130 with one `Interrupted`
// line, then exit 0 with one record per folder and every file once and identical, then exit 0
// with no changing request.

import { assertEquals, assertMatch } from "../_assert.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { tempDir } from "../_temp.ts";
import { tempHome, writeLocalConfig } from "./_run.ts";
import { cliSession, screenProblems, skipWithoutTmux } from "./_tmux.ts";
import { digest, recordTree, slowLink } from "./_interrupt.ts";
import { randomBytes } from "../transfer/_helpers.ts";
import { changing } from "../_server_log.ts";

const skipped = skipWithoutTmux("tmux_collections_interrupt_test.ts");

/** A slow link: each file below takes about a second. */
const RATE = 300_000;
const RECORDS = 4;
const FILES_PER_RECORD = 3;

/** The data files of one record folder (not its `.record.json`), name to digest. */
async function folderTree(dir: string): Promise<Record<string, string>> {
  const found: [string, string][] = [];
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.isFile && !entry.name.startsWith(".")) {
      found.push([entry.name, await digest(await Deno.readFile(`${dir}/${entry.name}`))]);
    }
  }
  return Object.fromEntries(found.sort(([a], [b]) => a.localeCompare(b)));
}

Deno.test({
  name:
    "Ctrl-C stops collections sync up and down at 80 columns; the same command again finishes with one record per folder and every file once, and once more changes nothing",
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

    // A project: record folders with a few files each, in folders whose names have spaces.
    const project = `${dir.path}/my project`;
    const expected: Record<string, Record<string, string>> = {};
    await Deno.mkdir(project, { recursive: true });
    await Deno.writeTextFile(`${project}/.collection.json`, JSON.stringify({ title: "Campaign" }));
    for (let index = 0; index < RECORDS; index++) {
      const folder = `${project}/sample-${index}`;
      await Deno.mkdir(folder);
      await Deno.writeTextFile(
        `${folder}/.record.json`,
        JSON.stringify({ title: `Sample ${index}` }),
      );
      const files: Record<string, string> = {};
      for (let file = 0; file < FILES_PER_RECORD; file++) {
        const data = randomBytes(250_000, 100 * index + file + 1);
        await Deno.writeFile(`${folder}/run ${file}.dat`, data);
        files[`run ${file}.dat`] = await digest(data);
      }
      expected[`sample-${index}`] = files;
    }

    /** Runs `command` until a file has gone through, presses Ctrl-C; exit 130, one line. */
    const interrupt = async (command: string, through: () => boolean) => {
      slowLink(server, RATE);
      const finish = await start(command);
      for (let poll = 0; poll < 1200 && !through(); poll++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await tmux.keys("C-c");
      const run = await finish();
      server.clearFaults();
      for (const rows of run.screens) assertEquals(screenProblems(rows), [], rows.join("\n"));
      assertEquals(run.exit, 130, run.text);
      assertEquals(run.text.split("\n").filter((row) => /Interrupted/.test(row)).length, 1);
      return run.text.replaceAll("\n", " ");
    };
    /** Runs `command` to its end; it must succeed. */
    const finish = async (command: string) => {
      const run = await (await start(command))();
      assertEquals(run.exit, 0, run.text);
      return run.text.replaceAll("\n", " ");
    };

    // Up: Ctrl-C once the first file has been stored, with the others still on their way.
    const up = `${cli} collections sync -C campaign --from '${project}' --concurrency 1`;
    const stored = () =>
      server.log.some((e) =>
        e.method === "PUT" && /\/uploads\//.test(e.path) && e.status >= 200 && e.status < 300
      );
    const upStopped = await interrupt(up, stored);
    assertMatch(upStopped, /Interrupted/);
    await finish(up);
    const mark = server.log.length;
    await finish(up);
    assertEquals(changing(server, mark), []);
    const collection = await manager.collection({ identifier: "campaign" });
    const members = (await Array.fromAsync(collection.records())).map((r) => r.identifier).sort();
    assertEquals(members, Object.keys(expected).sort());
    for (const [identifier, files] of Object.entries(expected)) {
      assertEquals(await recordTree(await manager.record({ identifier })), files, identifier);
    }

    // Down: Ctrl-C once the first file has come down, into a new folder.
    const down = `${cli} collections sync -C campaign --to '${dir.path}/copy' --concurrency 1`;
    const fetched = () => {
      try {
        return [...Deno.readDirSync(`${dir.path}/copy`)].some((record) =>
          record.isDirectory &&
          [...Deno.readDirSync(`${dir.path}/copy/${record.name}`)].some((file) =>
            file.name.endsWith(".dat")
          )
        );
      } catch {
        return false;
      }
    };
    await interrupt(down, fetched);
    await finish(down);
    await finish(down);
    for (const [identifier, files] of Object.entries(expected)) {
      assertEquals(await folderTree(`${dir.path}/copy/${identifier}`), files, identifier);
    }
  },
});
