// Running the CLI in a real 80-column terminal: a tmux pane on its own server socket, typed into
// and read back with `capture-pane`. Needs tmux (Debian's package; .ci/run installs it) and
// `--allow-run=tmux`; a test file that uses it is skipped with a message without them.

import { fileURLToPath } from "node:url";
import { shellWords } from "../_shell.ts";
import { cliPermissions } from "./_run.ts";

/** The terminal's width. */
export const COLUMNS = 80;
const CLI = fileURLToPath(new URL("../../cli.ts", import.meta.url));

/** Why the test cannot run here, or `undefined` when tmux can be used. */
export function tmuxMissing(): string | undefined {
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

/** A detached tmux session of `COLUMNS` x 30 on its own server socket. */
export async function tmuxSession(env: Record<string, string>) {
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
export const BAR_ROW = /\[[#-]+\]|\d+\/\d+ files|\d+%|ETA /;
/** A row that starts a message. */
export const MESSAGE =
  /(Uploaded|Downloaded|Downloading|Synced|Warning:|Resuming|Skipped|Error:|Interrupted)/;

/** What is wrong with one captured screen (empty: nothing). */
export function screenProblems(rows: string[]): string[] {
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

/**
 * Says on stderr why the tmux tests of `file` do not run, when they cannot.
 *
 * @returns Whether they are skipped.
 */
export function skipWithoutTmux(file: string): boolean {
  const missing = tmuxMissing();
  // The reason a screen test did not run must be visible in the test output.
  if (missing !== undefined) {
    Deno.stderr.writeSync(new TextEncoder().encode(`${file}: skipped, ${missing}\n`));
  }
  return missing !== undefined;
}

/** A tmux session ready to run the CLI with the config in `home`, reading and writing `dir`. */
export async function cliSession(home: string, dir: string) {
  const denoDir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
  const tmux = await tmuxSession({
    HOME: home,
    DENO_DIR: denoDir,
    LANG: "C.UTF-8",
    TERM: "xterm-256color",
    PS1: "$ ",
  });
  const permissions = cliPermissions(home).map((flag) =>
    flag.startsWith("--allow-read=") || flag.startsWith("--allow-write=") ? `${flag},${dir}` : flag
  );
  const cli = shellWords(["deno", "run", "--quiet", ...permissions, CLI]);
  // Each command runs on a cleared screen and ends with its own marker and exit code.
  let runs = 0;
  const start = async (command: string) => {
    const marker = `done${++runs}`;
    await tmux.type(`clear; ${command}; echo ${marker}=$?`);
    return async (limit?: number) => {
      const screens = await tmux.until(new RegExp(`^${marker}=\\d+$`), limit);
      const last = screens.at(-1)!;
      const exit = Number(last.find((row) => row.startsWith(`${marker}=`))!.split("=")[1]);
      return { screens, text: last.join("\n"), exit };
    };
  };
  return {
    tmux,
    cli,
    start,
    [Symbol.asyncDispose]: () => tmux[Symbol.asyncDispose](),
  };
}
