// What a person sees in a real 80-column terminal: the CLI runs in a tmux pane and the screen is
// read with `capture-pane` while an upload of a folder, a download of many files and a sync go,
// each slowed by the local server so the bar is on screen for a few seconds. Needs tmux (Debian's
// package; .ci/run installs it) and `--allow-run=tmux`; skipped with a message without them.

import { fileURLToPath } from "node:url";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { tempDir } from "../_temp.ts";
import { cliPermissions, tempHome, writeLocalConfig } from "./_run.ts";
import { shellWords } from "../_shell.ts";

const CLI = fileURLToPath(new URL("../../cli.ts", import.meta.url));
const COLUMNS = 80;
const FILES = 24;
const FILE_SIZE = 100_000;
/** The size of the file downloaded, interrupted and resumed; with the 24, the total. */
const BIG = 1_000_000;
const BIG_TOTAL = "3.4 MB";

/** Why the test cannot run here, or `undefined` when tmux can be used. */
function tmuxMissing(): string | undefined {
  if (Deno.permissions.querySync({ name: "run", command: "tmux" }).state !== "granted") {
    return "no --allow-run=tmux";
  }
  try {
    return new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" }).outputSync()
        .success
      ? undefined
      : "tmux -V failed";
  } catch {
    return "tmux is not installed (apt-get install tmux)";
  }
}

const missing = tmuxMissing();
if (missing !== undefined) {
  // The reason a screen test did not run must be visible in the test output.
  Deno.stderr.writeSync(
    new TextEncoder().encode(`tmux_screen_test.ts: skipped, ${missing}\n`),
  );
}

/** A detached tmux session of `COLUMNS` x 30 on its own server socket. */
async function tmuxSession(env: Record<string, string>) {
  const socket = `repo-apy-test-${crypto.randomUUID().slice(0, 8)}`;
  const tmux = async (...args: string[]) => {
    const result = await new Deno.Command("tmux", { args: ["-L", socket, ...args], env })
      .output();
    const text = new TextDecoder().decode(result.stdout);
    if (!result.success) {
      throw new Error(`tmux ${args[0]} failed: ${new TextDecoder().decode(result.stderr)}`);
    }
    return text;
  };
  await tmux(
    "new-session",
    "-d",
    "-x",
    String(COLUMNS),
    "-y",
    "30",
    "-s",
    "t",
    "sh",
  );
  return {
    /** Sends keys by their tmux names (`C-c`). */
    keys: (...keys: string[]) => tmux("send-keys", "-t", "t", ...keys),
    /** Types `line` and Enter. */
    type: (line: string) =>
      tmux("send-keys", "-t", "t", "-l", line).then(() => tmux("send-keys", "-t", "t", "Enter")),
    /** The visible screen, one string per row (trailing blanks cut). */
    screen: async () => (await tmux("capture-pane", "-p", "-t", "t")).split("\n"),
    /**
     * Every screen seen until a row matches `done` (polled every 50 ms, at most `limit` ms):
     * the test reads what the terminal shows, it does not time the CLI.
     */
    async until(done: RegExp, limit = 60_000): Promise<string[][]> {
      const screens: string[][] = [];
      const started = Date.now();
      while (Date.now() - started < limit) {
        const rows = await this.screen();
        screens.push(rows);
        if (rows.some((row) => done.test(row))) return screens;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no row matched ${done} in ${limit} ms:\n${screens.at(-1)?.join("\n")}`);
    },
    async [Symbol.asyncDispose]() {
      await tmux("kill-server").catch(() => {});
    },
  };
}

/** A row that is (part of) a progress line. */
const BAR_ROW = /\[[#-]+\]|\d+\/\d+ files|\d+%|ETA /;
/** A row that starts a message. */
const MESSAGE =
  /(Uploaded|Downloaded|Downloading|Synced|Warning:|Resuming|Skipped|Error:|Interrupted)/;

/** What is wrong with one captured screen (empty: nothing). */
function screenProblems(rows: string[]): string[] {
  const problems: string[] = [];
  const bars = rows.filter((row) => BAR_ROW.test(row));
  if (bars.length > 1) problems.push(`${bars.length} bar rows:\n${bars.join("\n")}`);
  for (const row of rows) {
    if (row.length > COLUMNS) problems.push(`a row wider than the terminal: ${row}`);
    const message = MESSAGE.exec(row);
    // A message shares no row with the bar, and starts its row (or follows the prompt).
    if (message !== null && BAR_ROW.test(row.slice(0, message.index))) {
      problems.push(`a message glued to the bar: ${row}`);
    }
    if (/^\s*[\d.]+ [kMG]?B\/s/.test(row) || /^\s*ETA /.test(row)) {
      problems.push(`a wrapped bar: ${row}`);
    }
  }
  return problems;
}

Deno.test({
  name:
    "at 80 columns an upload, a download and a sync show one bar line with n/N files, total and ETA",
  ignore: missing !== undefined,
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
    const denoDir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
    await using tmux = await tmuxSession({
      HOME: home.dir,
      DENO_DIR: denoDir,
      LANG: "C.UTF-8",
      TERM: "xterm-256color",
      PS1: "$ ",
    });
    const permissions = cliPermissions(home.dir).map((flag) =>
      flag.startsWith("--allow-read=") || flag.startsWith("--allow-write=")
        ? `${flag},${dir.path}`
        : flag
    );
    const cli = shellWords(["deno", "run", "--quiet", ...permissions, CLI]);

    // Each command runs on a cleared screen and ends with its own marker and exit code.
    let runs = 0;
    const start = async (command: string) => {
      const marker = `done${++runs}`;
      await tmux.type(`clear; ${command}; echo ${marker}=$?`);
      return async () => {
        const screens = await tmux.until(new RegExp(`^${marker}=\\d+$`));
        const last = screens.at(-1)!;
        const exit = Number(last.find((row) => row.startsWith(`${marker}=`))!.split("=")[1]);
        return { screens, text: last.join("\n"), exit };
      };
    };
    const seen = (screens: string[][], files: number, total: string) => {
      for (const rows of screens) assertEquals(screenProblems(rows), [], rows.join("\n"));
      const bar = screens.flat().find((row) =>
        new RegExp(`\\d+/${files} files`).test(row) && /ETA /.test(row)
      );
      assert(bar !== undefined, "no aggregate bar with n/N files and an ETA was seen");
      assertStringIncludes(bar, `/${total}`);
      return bar;
    };

    // The upload of a folder: one aggregate bar; per-file lines above it; the subfolder named.
    const upload = await (await start(
      `${cli} records add-files -R screen -n '${dir.path}/data' --concurrency 2`,
    ))();
    assertEquals(upload.exit, 0, upload.text);
    seen(upload.screens, FILES, "2.4 MB");
    assertMatch(
      upload.text,
      /\nUploaded 24 files, 2\.4 MB in \S+ \(\S+ \S+\/s\) to the record 'screen'/,
    );
    assertStringIncludes(upload.text, "Left out 1 subfolder(s)");

    // Every file, neither -n nor -P: counted and sized first, and the question answered no.
    const refusing = await start(`${cli} records get-file -R screen -p '${dir.path}/out'`);
    const asked = await tmux.until(/\[y\/N\]/);
    assertStringIncludes(asked.at(-1)!.join("\n"), `Download 25 files (${BIG_TOTAL})? [y/N]`);
    await tmux.type("n");
    const refused = await refusing();
    assertEquals(refused.exit, 1, refused.text);
    assertStringIncludes(refused.text, "Nothing was downloaded");

    // A pattern picks the files: no question; one aggregate bar.
    const download = await (await start(
      `${cli} records get-file -R screen -P '*.txt' -p '${dir.path}/out'`,
    ))();
    assertEquals(download.exit, 0, download.text);
    seen(download.screens, FILES, "2.4 MB");
    assertMatch(download.text, /\nDownloaded 24 files, 2\.4 MB in \S+/);

    // A sync down to a new folder: the same one bar with n/N files, per-file lines above it.
    const synced = await (await start(
      `${cli} records sync -R screen --to '${dir.path}/synced'`,
    ))();
    assertEquals(synced.exit, 0, synced.text);
    seen(synced.screens, FILES + 1, BIG_TOTAL);
    assertMatch(synced.text, /\nDownloaded 'big\.bin' \(1\.0 MB\)\n/);
    assertMatch(synced.text, /\nSynced: download 25 \(3\.4 MB\)/);

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
