import { assertEquals } from "../_assert.ts";
import { createProgress, Output, type Verbosity } from "../../lib/cli/output.ts";

function capture(verbosity: Verbosity, terminal = false) {
  const out: string[] = [];
  const err: string[] = [];
  const output = new Output({
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    stderrIsTerminal: terminal,
  });
  output.verbosity = verbosity;
  return { output, out, err };
}

Deno.test("Output prints data always and filters messages by verbosity", () => {
  const expected: Record<Verbosity, { out: string[]; err: string[] }> = {
    error: { out: ["data\n"], err: ["E\n"] },
    warning: { out: ["data\n"], err: ["Warning: W\n", "E\n"] },
    info: { out: ["data\n"], err: ["I\n", "Warning: W\n", "E\n"] },
    debug: { out: ["data\n"], err: ["I\n", "D\n", "Warning: W\n", "E\n"] },
  };
  for (
    const [verbosity, streams] of Object.entries(expected) as [Verbosity, typeof expected.info][]
  ) {
    const { output, out, err } = capture(verbosity);
    output.data("data");
    output.info("I");
    output.debug("D");
    output.warning("W");
    output.error("E");
    assertEquals({ out, err }, streams, verbosity);
  }
});

Deno.test("Output sends library log messages to stderr only", () => {
  const { output, out, err } = capture("debug");
  const log = output.logger();
  log.debug("d");
  log.info("i");
  log.warning("w");
  log.error("e");
  assertEquals(out, []);
  assertEquals(err, ["d\n", "i\n", "Warning: w\n", "e\n"]);
});

Deno.test("Output replaces registered secrets everywhere", () => {
  const { output, out, err } = capture("info");
  output.addSecret("pat_secret_value");
  output.addSecret("short");
  output.data("token pat_secret_value used");
  output.error("Error: pat_secret_value short");
  assertEquals(out, ["token *** used\n"]);
  assertEquals(err, ["Error: *** short\n"]);
});

Deno.test("Output.json() prints indented JSON on stdout", () => {
  const { output, out } = capture("error");
  output.json({ a: [1] });
  assertEquals(out, ['{\n  "a": [\n    1\n  ]\n}\n']);
});

Deno.test("createProgress() draws only when stderr is a terminal", () => {
  const pipe = capture("info");
  const silent = createProgress(10, "up", pipe.output);
  silent.advance(5);
  silent.done();
  assertEquals(pipe.err, []);
  const tty = capture("info", true);
  const bar = createProgress(10, "up", tty.output);
  bar.advance(5);
  bar.done();
  assertEquals(tty.err.length, 2);
  assertEquals(tty.err[0]?.includes(" 50%"), true);
});

Deno.test("createProgress() counts skipped (resumed) amounts in the total, not in the rate", () => {
  const tty = capture("info", true);
  let time = 0;
  const bar = createProgress(2_000_000, "up", tty.output, { now: () => time });
  bar.skip(1_000_000);
  time = 1000;
  bar.advance(500_000);
  assertEquals(tty.err.at(-1)?.includes("1.5 MB/2.0 MB"), true);
  assertEquals(tty.err.at(-1)?.includes(" 500.0 kB/s"), true, tty.err.at(-1));
});

Deno.test("messages are one safe line each; data and JSON stay exact", () => {
  const { output, out, err } = capture("debug");
  const hostile = "A\x1b]0;t\x07\x1b[31m\r\nB\u009b\u202e\tC";
  output.info(`title '${hostile}'`);
  output.warning(hostile);
  output.error(hostile);
  output.debug(`${hostile}\nsecond`);
  output.data(hostile);
  output.json({ title: hostile });
  assertEquals(out[0], `${hostile}\n`);
  assertEquals(JSON.parse(out[1]!).title, hostile);
  assertEquals(err, [
    "title 'A?]0;t??[31m??B??\tC'\n",
    "Warning: A?]0;t??[31m??B??\tC\n",
    "A?]0;t??[31m??B??\tC\n",
    // debug keeps line breaks (indented response bodies); the CR before one is still replaced.
    "A?]0;t??[31m?\nB??\tC\nsecond\n",
  ]);
});
