// What a person sees in a real 80-column terminal: the CLI runs in a tmux pane and the screen is
// read with `capture-pane` while an upload of a folder, a download of many files and a sync go,
// each slowed by the local server so the bar is on screen for a few seconds. Needs tmux (Debian's
// package; .ci/run installs it) and `--allow-run=tmux`; skipped with a message without them.

import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { tempDir } from "../_temp.ts";
import { tempHome, writeLocalConfig } from "./_run.ts";
import { BAR_ROW, cliSession, screenProblems, skipWithoutTmux } from "./_tmux.ts";

const FILES = 24;
const FILE_SIZE = 100_000;
/** The size of the file downloaded, interrupted and resumed; with the 24 and one.bin, the total. */
const BIG = 1_000_000;
const BIG_TOTAL = "3.5 MB";

const skipped = skipWithoutTmux("tmux_screen_test.ts");

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

Deno.test({
  name:
    "at 80 columns an upload, a download and a sync show one bar line with n/N files, total and ETA",
  ignore: skipped,
  sanitizeResources: false,
  async fn() {
    await using server = await startServer();
    await using manager = new RepoManager({ host: server.url, pat: server.pat });
    const record = await manager.record({ identifier: "screen", create: true });
    await record.uploadString("x".repeat(BIG), "big.bin");
    // Slow enough that the bar is on screen for a few seconds, in both directions.
    server.addFault({ method: "PUT", path: /\/uploads\//, slowRequestBytesPerSecond: 400_000 });
    server.addFault({
      method: "GET",
      path: /\/files\/[^/]+\/download$/,
      slowBodyBytesPerSecond: 300_000,
    });
    await using home = await tempHome();
    await using dir = await tempDir();
    await writeLocalConfig(home.configPath, server.url, server.pat);
    await Deno.mkdir(`${dir.path}/data/raw`, { recursive: true });
    for (let index = 0; index < FILES; index++) {
      await Deno.writeFile(`${dir.path}/data/notes ${index}.txt`, new Uint8Array(FILE_SIZE));
    }
    await using session = await cliSession(home.dir, dir.path);
    const { tmux, cli, start } = session;

    const seen = (screens: string[][], files: number, total: string) => {
      for (const rows of screens) assertEquals(screenProblems(rows), [], rows.join("\n"));
      const bar = screens.flat().find((row) =>
        new RegExp(`\\d+/${files} files`).test(row) && /ETA /.test(row)
      );
      assert(bar !== undefined, "no aggregate bar with n/N files and an ETA was seen");
      assertStringIncludes(bar, `/${total}`);
      return bar;
    };

    // The upload of a folder: one aggregate bar and the summary, no line per file (they are for
    // -V info); the subfolder named. The summary is broken at a space, not by the terminal.
    const addFolder = `${cli} records add-files -R screen -n '${dir.path}/data' --concurrency 2`;
    const upload = await (await start(addFolder))();
    assertEquals(upload.exit, 0, upload.text);
    seen(upload.screens, FILES, "2.4 MB");
    assertMatch(
      upload.text,
      /\nUploaded 24 files, 2\.4 MB in \S+ \(\S+ \S+\/s\) to the record 'screen'/,
    );
    assertStringIncludes(upload.text, "Left out 1 subfolder(s)");
    assertEquals(upload.text.split("\n").filter((row) => /^Uploaded 'notes/.test(row)), []);
    const summary = upload.text.split("\n").findIndex((row) => row.startsWith("Uploaded 24"));
    assert(upload.text.split("\n")[summary]!.length < 80, upload.text);

    // The same upload again: every file is already there, exit 0; -V info lists each file.
    const again = await (await start(`${addFolder} -V info`))();
    assertEquals(again.exit, 0, again.text);
    assertStringIncludes(again.text, "Skipped 'notes 9.txt': already there with the same content");
    assertStringIncludes(again.text, "All 24 files are already in the record 'screen'");

    // One file: its line has the size, the time and the rate, like a folder's summary.
    await Deno.writeFile(`${dir.path}/one.bin`, new Uint8Array(FILE_SIZE));
    const one =
      await (await start(`${cli} records add-files -R screen -n '${dir.path}/one.bin'`))();
    assertEquals(one.exit, 0, one.text);
    assertMatch(one.text.replaceAll("\n", " "), /Uploaded 'one\.bin' .* 100\.0 kB in \S+ \(/);

    // Every file, neither -n nor -P: counted and sized first, and the question answered no:
    // not an error, and the folder is not created.
    const refusing = await start(`${cli} records get-file -R screen -p '${dir.path}/out'`);
    const asked = await tmux.until(/\[y\/N\]/);
    assertStringIncludes(asked.at(-1)!.join("\n"), `Download 26 files (${BIG_TOTAL})? [y/N]`);
    await tmux.type("n");
    const refused = await refusing();
    assertEquals(refused.exit, 0, refused.text);
    assertStringIncludes(refused.text, "\nNothing was downloaded");
    assert(!refused.text.includes("Error:"), refused.text);
    assertEquals(await exists(`${dir.path}/out`), false);

    // The same question cancelled with one Ctrl-C: one line on its own, exit 130, nothing made.
    const cancelling = await start(`${cli} records get-file -R screen -p '${dir.path}/out'`);
    // The question still unanswered (the previous one's row ends with its answer).
    await tmux.until(/\[y\/N\]$/);
    await tmux.keys("C-c");
    const cancelled = await cancelling();
    assertEquals(cancelled.exit, 130, cancelled.text);
    assertMatch(cancelled.text, /\[y\/N\] (\^C)?\nCancelled: nothing was changed\n/);
    assertEquals(await exists(`${dir.path}/out`), false);

    // The hidden question for a token, cancelled with one Ctrl-C: the same line, exit 130, and
    // the config file as it was.
    const config = await Deno.readTextFile(home.configPath);
    const asking = await start(`${cli} config set-pat`);
    await tmux.until(/^Personal access token: $|^Personal access token:$/);
    await tmux.keys("C-c");
    const unset = await asking();
    assertEquals(unset.exit, 130, unset.text);
    assertMatch(unset.text, /Personal access token: ?\nCancelled: nothing was changed\n/);
    assertEquals(await Deno.readTextFile(home.configPath), config);

    // A pattern picks the files: no question; one aggregate bar.
    const download = await (await start(
      `${cli} records get-file -R screen -P '*.txt' -p '${dir.path}/out'`,
    ))();
    assertEquals(download.exit, 0, download.text);
    seen(download.screens, FILES, "2.4 MB");
    assertMatch(download.text, /\nDownloaded 24 files, 2\.4 MB in \S+/);

    // A sync down to a new folder: the same one bar with n/N files, and the summary.
    const synced = await (await start(
      `${cli} records sync -R screen --to '${dir.path}/synced'`,
    ))();
    assertEquals(synced.exit, 0, synced.text);
    seen(synced.screens, FILES + 2, BIG_TOTAL);
    assertMatch(synced.text, /(^|\n)Synced: download 26 \(3\.5 MB\)/);

    // Ctrl-C in the middle of a download leaves a clean line; the rerun says it resumes.
    const big = `${cli} records get-file -R screen -n big.bin -p '${dir.path}/big'`;
    const stopping = await start(big);
    await tmux.until(/big\.bin .*\d+%.*ETA/);
    await tmux.keys("C-c");
    const stopped = await stopping();
    assertEquals(stopped.exit, 130, stopped.text);
    for (const rows of stopped.screens) assertEquals(screenProblems(rows), [], rows.join("\n"));
    assertEquals(stopped.text.split("\n").filter((row) => BAR_ROW.test(row)), [], stopped.text);
    assertMatch(stopped.text, /(^|\n)(\^C)?Interrupted: /);
    server.clearFaults();
    const resumed = await (await start(big))();
    assertEquals(resumed.exit, 0, resumed.text);
    assertMatch(
      resumed.text,
      /Resuming the download of 'big\.bin': [\d.]+ [kM]?B of 1\.0 MB already here/,
    );
  },
});
