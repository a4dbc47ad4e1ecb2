// Progress (issue 9): ETA on the bar, plain lines off a terminal with --progress, -q/--quiet.

import {
  assertEquals,
  assertMatch,
  assertNotIncludes,
  assertStringIncludes,
  assertTrue,
} from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { createProgress, formatDuration, Output } from "../../lib/cli/output.ts";
import { progressLine } from "../../lib/cli/_progress_line.ts";
import { createRecord, ok, repo, tempDir } from "./_records.ts";

function capture(terminal: boolean) {
  const lines: string[] = [];
  const output = new Output({
    stdout: () => {},
    stderr: (text) => lines.push(text),
    stderrIsTerminal: terminal,
  });
  return { output, lines };
}

Deno.test("createProgress() on a terminal shows the rate and an ETA", () => {
  const { output, lines } = capture(true);
  let time = 0;
  const bar = createProgress(10_000_000, "up", output, { now: () => time });
  time = 2000;
  bar.advance(2_000_000);
  assertStringIncludes(lines.at(-1) ?? "", "1.0 MB/s");
  assertStringIncludes(lines.at(-1) ?? "", "ETA 8s");
});

Deno.test("createProgress() off a terminal prints plain lines every interval with --progress", () => {
  const { output, lines } = capture(false);
  output.plainProgress = true;
  let time = 0;
  const bar = createProgress(100_000_000, "Uploading run1.h5", output, {
    now: () => time,
    interval: 5000,
  });
  for (let second = 1; second <= 12; second++) {
    time = second * 1000;
    bar.advance(1_000_000);
  }
  bar.done();
  assertEquals(lines.length, 3, lines.join(""));
  assertEquals(lines[0], "Uploading run1.h5: 5.0 MB/100.0 MB (5%), 1.0 MB/s, ETA 1m 35s\n");
  assertMatch(lines[1] ?? "", /^Uploading run1\.h5: 10\.0 MB\/100\.0 MB \(10%\)/);
  assertEquals(lines[2], "Uploading run1.h5: done, 12.0 MB in 12s (1.0 MB/s)\n");
  for (const line of lines) assertNotIncludes(line, "\r");
});

Deno.test("createProgress() prints nothing off a terminal without --progress, or when quiet", () => {
  const { output, lines } = capture(false);
  const silent = createProgress(10, "up", output, { now: () => 99_999 });
  silent.advance(10);
  silent.done();
  const tty = capture(true);
  tty.output.verbosity = "error";
  createProgress(10, "up", tty.output).advance(10);
  assertEquals([...lines, ...tty.lines], []);
});

Deno.test("formatDuration() reads like a clock", () => {
  assertEquals(
    [formatDuration(5), formatDuration(65), formatDuration(7260)],
    ["5s", "1m 05s", "2h 01m"],
  );
});

Deno.test("--progress off a terminal logs the upload; -q/--quiet prints only the data asked for", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = String(await createRecord(server, "progress"));
  await Deno.writeFile(`${dir.path}/data.bin`, new Uint8Array(100_000));
  const logged = await ok(server, [
    "add-files",
    "-r",
    id,
    "-n",
    `${dir.path}/data.bin`,
    "--progress",
  ]);
  assertMatch(logged.stderr, /Uploading data\.bin: done, 100\.0 kB in/);
  const quiet = await repo(server, ["records", "add-tag", "-r", id, "-t", "x", "-q"]);
  assertEquals([quiet.code, quiet.stdout, quiet.stderr], [0, "", ""]);
  const piped = await repo(server, ["records", "create", "-i", "quiet", "-p", "--quiet"]);
  assertEquals(piped.stdout, `${Number(piped.stdout)}\n`);
  assertEquals(piped.stderr, "");
  const failed = await repo(server, ["records", "show-info", "-R", "missing", "-q"]);
  assertEquals(failed.code, 1);
  assertStringIncludes(failed.stderr, "Error: ");
});

Deno.test("progressLine() fits the width: the bar shrinks and goes, then the label's end, the rate, the bytes; the verb last", () => {
  const parts = {
    label: "Uploading data",
    percent: 33,
    files: "8/24 files",
    amount: "800.0 kB/2.4 MB",
    rate: "556.0 kB/s",
    eta: "ETA 3s",
  };
  const wide = progressLine(parts, 180);
  assertEquals(
    wide,
    "Uploading data [##########--------------------] 8/24 files  33% 800.0 kB/2.4 MB 556.0 kB/s ETA 3s",
  );
  for (const columns of [180, 120, 80, 60, 40, 30, 20, 12, 5]) {
    const line = progressLine(parts, columns);
    assertTrue(line.length <= columns - 3 || columns <= 4, `${columns}: ${line}`);
  }
  assertEquals(
    progressLine(parts, 80),
    "Uploading data [###-------] 8/24 files  33% 800.0 kB/2.4 MB 556.0 kB/s ETA 3s",
  );
  assertEquals(
    progressLine(parts, 64),
    "Uploading 8/24 files  33% 800.0 kB/2.4 MB 556.0 kB/s ETA 3s",
  );
  // Narrower: the rate goes, then the bytes (the compact form keeps files, share and time left).
  assertEquals(progressLine(parts, 60), "Uploading data 8/24 files  33% 800.0 kB/2.4 MB ETA 3s");
  assertEquals(progressLine(parts, 44), "Uploading data 8/24 files 33% ETA 3s");
  assertEquals(progressLine(parts, 30), "8/24 files 33% ETA 3s");
  // Many files of a long transfer at 80 columns: the verb stays whole, the bar goes first.
  assertEquals(
    progressLine({
      label: "Uploading my-experiment",
      percent: 99,
      files: "1985/2000 files",
      amount: "1.2 GB/1.3 GB",
      rate: "12.3 MB/s",
      eta: "ETA 1m 05s",
    }, 80),
    "Uploading my-experim… 1985/2000 files  99% 1.2 GB/1.3 GB 12.3 MB/s ETA 1m 05s",
  );
  // No total: no bar and no share, the bytes and the rate.
  assertEquals(
    progressLine({ label: "Exporting 3", amount: "1.0 MB", rate: "1.0 MB/s", eta: "" }, 80),
    "Exporting 3 1.0 MB 1.0 MB/s",
  );
});

Deno.test("createProgress() on a terminal redraws one line at the terminal's width, after a resize too", () => {
  const { output, lines } = capture(true);
  let columns = 120;
  let time = 0;
  const bar = createProgress(2_400_000, "Uploading data", output, {
    now: () => time,
    files: 24,
    columns: () => columns,
  });
  time = 1000;
  bar.advance(600_000);
  bar.fileDone();
  const first = lines.at(-1)!;
  // One line redrawn in place: back to its start, the line, the rest of the old one erased.
  assertEquals([first.startsWith("\r"), first.endsWith("\x1b[K")], [true, true]);
  assertMatch(
    first.slice(1, -3),
    // 1 file of 24 in a second: 23 files to go outweigh the 3 s the bytes alone would take.
    /^Uploading data \[#+-+\] 1\/24 files {2}25% 600\.0 kB\/2\.4 MB .* ETA 23s$/,
  );
  columns = 50;
  time = 2000;
  bar.advance(600_000);
  const narrow = lines.at(-1)!.slice(1, -3);
  assertTrue(narrow.length <= 47, narrow);
  assertStringIncludes(narrow, "1/24 files");
  bar.done();
  assertEquals(lines.at(-1), "\r\x1b[2K");
  assertTrue(lines.every((line) => !line.includes("\n")), "the bar never starts a new line");
});

Deno.test("a message printed while the bar is drawn goes above it on its own line", () => {
  const { output, lines } = capture(true);
  let time = 0;
  const bar = createProgress(100, "up", output, { now: () => time, columns: () => 80 });
  time = 500;
  bar.advance(50);
  output.info("Uploaded 'a.txt'");
  output.warning("slow");
  output.data("42");
  const shown = lines.join("");
  // Each message clears the bar's line, takes it, ends it, and the bar is drawn again below.
  assertStringIncludes(shown, "\r\x1b[2KUploaded 'a.txt'\nup [");
  assertStringIncludes(shown, "\r\x1b[2KWarning: slow\nup [");
  bar.done();
  assertEquals(lines.at(-1), "\r\x1b[2K");
  output.info("after");
  assertEquals(lines.at(-1), "after\n");
});

Deno.test("add-files on a folder shows the file count and the folder's total on --progress lines", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = String(await createRecord(server, "aggregate"));
  for (const name of ["a", "b", "c"]) {
    await Deno.writeFile(`${dir.path}/${name}.bin`, new Uint8Array(10_000));
  }
  const run = await ok(server, ["add-files", "-r", id, "-n", dir.path, "--progress"]);
  // Off a terminal, the last plain line: the total was known before the first byte.
  assertMatch(run.stderr, /Uploading [^:]+: done, 30\.0 kB in /);
  assertMatch(run.stderr, /\nUploaded 3 files, 30\.0 kB in \S+/);
});

Deno.test("createProgress() of many files: the ETA counts the files still to go, not only the bytes", () => {
  const { output, lines } = capture(true);
  let time = 0;
  // 100 files of 1 MB in all: the big one went first, 90 small ones are left.
  const bar = createProgress(1_000_000, "Uploading", output, { now: () => time, files: 100 });
  time = 10_000;
  bar.advance(900_000);
  for (let file = 0; file < 10; file++) bar.fileDone();
  // The bytes alone would say about a second; 10 files in 10 s leave 90 s for 90 files.
  assertStringIncludes(lines.at(-1) ?? "", "ETA 1m 30s");
});

Deno.test("fileLine(): per-file lines are left to the bar on a terminal unless -V is given; a log keeps them", () => {
  const terminal = capture(true);
  terminal.output.fileLine("Uploaded 'a.txt'");
  terminal.output.verbosityGiven = true;
  terminal.output.fileLine("Uploaded 'b.txt'");
  assertEquals(terminal.lines, ["Uploaded 'b.txt'\n"]);
  const log = capture(false);
  log.output.fileLine("Uploaded 'a.txt'");
  log.output.verbosity = "warning";
  log.output.fileLine("Uploaded 'b.txt'");
  assertEquals(log.lines, ["Uploaded 'a.txt'\n"]);
});
