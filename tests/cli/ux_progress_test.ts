// Progress (issue 9): ETA on the bar, plain lines off a terminal with --progress, -q/--quiet.

import { assertEquals, assertMatch, assertNotIncludes, assertStringIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { createProgress, formatDuration, Output } from "../../lib/cli/output.ts";
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
