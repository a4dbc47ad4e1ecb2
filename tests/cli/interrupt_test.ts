// Ctrl-C: the CLI cancels the running command, says in one line what was left and how to
// continue, and exits with 130; the same command run again resumes the download.
import { assertEquals, assertMatch } from "../_assert.ts";
import { interruptMessage } from "../../lib/cli/_errors.ts";
import { runCli as runInProcess } from "../../lib/cli/run.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { UploadError } from "../../lib/transfer/errors.ts";
import type { UploadJson } from "../../lib/http/protocol.ts";
import { spawnCli, tempHome, writeLocalConfig } from "./_run.ts";
import { shellQuote } from "../_shell.ts";

const SIZE = 1_000_000;

async function waitForPart(dir: string): Promise<void> {
  for (let i = 0; i < 1500; i++) {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.name.endsWith(".part") && (await Deno.stat(`${dir}/${entry.name}`)).size > 0) {
        return;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("no partial file appeared");
}

/** A word as the CLI quotes it for the shell in the rerun command (only when it must). */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : shellQuote(word);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

async function interruptAndResume(size: number): Promise<void> {
  await using server = await startServer();
  await using home = await tempHome();
  await using manager = new RepoManager({ host: server.url, pat: server.pat });
  const record = await manager.record({ identifier: "interrupt", create: true });
  const content = new Uint8Array(size).map((_, i) => i % 251);
  await record.uploadFile(ReadableStream.from([content]), { fileName: "big.bin", size });
  await writeLocalConfig(home.configPath, server.url, server.pat);
  const out = `${home.dir}/out`;
  await Deno.mkdir(out);
  server.addFault({ method: "GET", path: "/download", slowBodyBytesPerSecond: 100_000 });
  const args = ["records", "get-file", "-r", String(record.id), "-p", out, "-n", "big.bin"];
  const child = spawnCli(home.dir, args);
  await waitForPart(out);
  child.kill("SIGINT");
  const { code, stderr } = await child.output();
  const text = new TextDecoder().decode(stderr);
  assertEquals(code, 130);
  assertEquals(text.trim().split("\n").length, 1, text);
  assertMatch(
    text,
    new RegExp(
      String
        .raw`^Interrupted: the partial file '.*\/out\/\.big\.bin\.[0-9a-f]{8}\.part' \(\d+ of ${size} bytes\) was kept; run the same command again to resume the download: repo-apy ${
        escapeRegExp(args.map(shellWord).join(" "))
      }\n$`,
    ),
  );
  server.clearFaults();
  const before = server.log.length;
  const rerun = await runInProcess(args, {
    version: "0.0.0-test",
    stdout: () => {},
    stderr: () => {},
    managerOptions: { host: server.url, pat: server.pat },
  });
  assertEquals(rerun, 0);
  const range = server.log.slice(before).find((entry) => entry.path.endsWith("/download"))
    ?.headers["range"];
  assertMatch(range ?? "", /^bytes=\d+-$/);
  assertEquals(await Deno.readFile(`${out}/big.bin`), content);
  assertEquals([...Deno.readDirSync(out)].map((entry) => entry.name), ["big.bin"]);
}

Deno.test("records get-file: SIGINT mid-download prints one line, exits 130, and the rerun resumes", async () => {
  await interruptAndResume(SIZE);
});

Deno.test("records get-file: the same over the bulk connection of a big file (2 MB)", async () => {
  await interruptAndResume(2_000_000);
});

Deno.test("runCli() with an aborted signal exits 130 with one line", async () => {
  await using server = await startServer();
  let stderr = "";
  const code = await runInProcess(["records", "get-metadatum", "-r", "1", "-n", "x"], {
    version: "0.0.0-test",
    stdout: () => {},
    stderr: (text) => stderr += text,
    managerOptions: { host: server.url, pat: server.pat },
    signal: AbortSignal.abort(),
  });
  assertEquals(code, 130);
  assertEquals(
    stderr,
    "Interrupted before the command finished: what it completed is kept; run the same command again to finish the job: repo-apy records get-metadatum -r 1 -n x\n",
  );
});

Deno.test("interruptMessage() quotes the command that continues for a POSIX shell", () => {
  assertEquals(
    interruptMessage(new Error("stopped"), [
      "repo-apy",
      "records",
      "add-files",
      "-n",
      "my data/it's",
    ]),
    "Interrupted before the command finished: what it completed is kept; run the same command again to finish the job: repo-apy records add-files -n 'my data/it'\\''s'",
  );
});

Deno.test("interruptMessage() names the chunks an interrupted upload left on the server", () => {
  const upload = { name: "big.bin", chunk_count: 5, chunks: [{}, {}] } as unknown as UploadJson;
  const error = new UploadError("stopped", { upload, resumable: true });
  assertEquals(
    interruptMessage(new Error("wrapped", { cause: error })),
    "Interrupted: the upload of 'big.bin' stays on the server (2 of 5 chunks); run the same command again to resume it",
  );
});
