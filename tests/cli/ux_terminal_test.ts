// Terminal safety: server text (titles, identifiers, names) reaches the terminal without control
// characters, in every group's human-readable output; JSON output stays exact JSON.

import { assert } from "../_assert.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import { repo, type Run } from "./_records.ts";
import { createdId } from "./_resources.ts";

const HOSTILE = "EVIL\x1b]0;pwned\x07\x1b[31m\r\nForged: line\u009b2J\u202e";

// deno-lint-ignore no-control-regex -- looking for control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/;

function assertSafe(run: Run, args: string[]): void {
  for (const [stream, text] of [["stdout", run.stdout], ["stderr", run.stderr]] as const) {
    assert(
      !CONTROL.test(text),
      `${args.join(" ")}: control character on ${stream}: ${JSON.stringify(text)}`,
    );
    assert(!text.includes("\nForged"), `${args.join(" ")}: forged line on ${stream}`);
  }
}

async function safe(server: TestServer, args: string[]): Promise<Run> {
  const run = await repo(server, args);
  assertSafe(run, args);
  return run;
}

Deno.test("hostile titles are printed without control characters by every group", async () => {
  await using server = await startServer();
  const record = String(
    await createdId(server, ["records", "create", "-i", "evil", "-t", HOSTILE]),
  );
  const other = String(await createdId(server, ["records", "create", "-i", "other"]));
  const collection = String(
    await createdId(server, ["collections", "create", "-i", "evil-c", "-t", HOSTILE]),
  );
  await createdId(server, ["templates", "create", "-i", "evil-t", "-t", HOSTILE, "-y", "record"]);
  await createdId(server, ["groups", "create", "-i", "evil-g", "-t", HOSTILE]);
  await safe(server, ["records", "add-record-link", "-r", other, "-n", HOSTILE, "-l", record]);
  const commands = [
    ["records", "show-info", "-r", record, "-d", "-v", "-l", "-m"],
    ["records", "show-record-links-to", "-r", record, "-d", "in"],
    ["records", "add-string-as-file", "-r", record, "-s", "x", "-n", "a.txt"],
    ["records", "edit", "-r", record, "-v", "public"],
    ["records", "add-tag", "-r", record, "-t", "tag"],
    ["records", "get-records"],
    ["collections", "add-record-link", "-c", collection, "-r", record],
    ["collections", "add-record-link", "-c", collection, "-r", record],
    ["collections", "show-info", "-c", collection, "-d", "-v"],
    ["collections", "get-collections"],
    ["templates", "show-info", "-T", "evil-t", "-d"],
    ["templates", "get-templates"],
    ["groups", "show-info", "-G", "evil-g", "-d"],
    ["groups", "get-groups"],
    ["records", "remove-tag", "-r", record, "-t", "tag", "--dry-run"],
    ["collections", "remove-record-link", "-c", collection, "-r", record, "--dry-run"],
    ["records", "delete", "-r", record, "--dry-run"],
    ["records", "delete", "-r", record, "--i-am-sure"],
    ["misc", "get-deleted-resources"],
  ];
  for (const args of commands) await safe(server, args);
  const json = await repo(server, ["collections", "show-info", "-c", collection, "--json"]);
  assert(JSON.parse(json.stdout).title.startsWith("EVIL\x1b]0;pwned\x07"), json.stdout);
});

Deno.test("hostile identifiers and names from the server are made safe", async () => {
  await using server = await startServer();
  const record = String(await createdId(server, ["records", "create", "-i", "plain"]));
  await repo(server, ["records", "add-string-as-file", "-r", record, "-s", "x", "-n", "a.txt"]);
  server.addFault({ method: "GET", jsonFields: { identifier: HOSTILE, name: HOSTILE } });
  for (
    const args of [
      ["records", "show-info", "-r", record, "-l"],
      ["records", "get-records"],
      ["users", "get-users"],
      ["misc", "get-licenses"],
      ["misc", "get-tags"],
    ]
  ) await safe(server, args);
});
