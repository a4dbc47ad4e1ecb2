// The CLI words library errors from their classes and fields (issue 9 follow-up): the metadata
// entry and the allowed types, the config file's problem and the settings still missing, a
// download's target instead of its temporary file.

import { assertEquals, assertNotIncludes, assertStringIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { ConfigFileError } from "../../lib/config/errors.ts";
import { MetadataError } from "../../lib/resources/errors.ts";
import { LocalFileError, UploadFilesError } from "../../lib/transfer/errors.ts";
import { RepoApyError } from "../../lib/errors.ts";
import { reportError } from "../../lib/cli/_errors.ts";
import { errorLine, fieldErrors } from "../../lib/cli/_messages.ts";
import { Output } from "../../lib/cli/output.ts";
import { createRecord, repo } from "./_records.ts";
import { runCli, tempHome } from "./_run.ts";

function reported(error: unknown): string[] {
  const lines: string[] = [];
  reportError(error, new Output({ stdout: () => {}, stderr: (text) => lines.push(text) }));
  return lines;
}

Deno.test("a wrong metadata type names the entry and the allowed types in CLI terms", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "typed-wrong");
  const run = await repo(server, [
    "records",
    "add-metadata",
    "-r",
    String(id),
    "-m",
    '[{"key": "d", "type": "dict", "value": [{"key": "e", "type": "text", "value": 1}]}]',
  ]);
  assertEquals(run.code, 1);
  assertStringIncludes(
    run.stderr,
    "Invalid metadatum 'd.e' (metadata entry 1, value 1 type): 'text' is not a metadata type: " +
      "give one of str, int, float, bool, date, dict, list",
  );
  assertNotIncludes(run.stderr, "extras[");
});

Deno.test("errorLine() builds the metadata sentence from the fields, not from the message", () => {
  const error = new MetadataError("(anything the library says)", {
    path: ["extras", 2, "value", 0, "unit"],
    keyPath: ["size", "1"],
    reason: "a unit is only allowed with int and float, not str; remove the unit",
  });
  assertEquals(
    errorLine(error),
    "Invalid metadatum 'size.1' (metadata entry 3, value 1 unit): a unit is only allowed with " +
      "int and float, not str; remove the unit",
  );
  const typeless = new MetadataError("x", {
    path: ["extras", 0, "type"],
    reason: "x",
    allowedTypes: ["str", "int"],
    givenType: undefined,
  });
  assertEquals(
    errorLine(typeless),
    "Invalid metadatum (metadata entry 1, type): the type is missing: give one of str, int",
  );
});

Deno.test("the server's field errors of extras name the metadata entry", () => {
  assertEquals(
    fieldErrors({ errors: { extras: { "0": { value: { "1": { key: ["Missing key."] } } } } } }),
    ["metadata entry 1, value 2 key: Missing key."],
  );
});

Deno.test("errorLine() words a config file problem with the variables of the settings missing", () => {
  const base = { path: "/home/me/.repoconfig" };
  assertEquals(
    errorLine(new ConfigFileError("x", { ...base, problem: "notFound", missing: ["pat"] })),
    "No config file at /home/me/.repoconfig: run 'repo-apy config create' and then " +
      "'repo-apy config set-host' / 'set-pat', or set REPO_APY_PAT",
  );
  assertEquals(
    errorLine(new ConfigFileError("x", { ...base, problem: "notPermitted" })),
    "No permission to read the config file /home/me/.repoconfig: run Deno with " +
      "--allow-read=/home/me/.repoconfig, or set REPO_APY_HOST and REPO_APY_PAT",
  );
  assertEquals(
    errorLine(new ConfigFileError("x", { ...base, problem: "notReadable", missing: ["host"] })),
    "The config file /home/me/.repoconfig is not readable by you: run 'chmod 600 " +
      "/home/me/.repoconfig' as its owner, or set REPO_APY_HOST",
  );
  // An instance was named: the file is needed whatever the environment says.
  assertEquals(
    errorLine(
      new ConfigFileError("x", { problem: "noHome", homeVariable: "USERPROFILE", missing: [] }),
    ),
    "Cannot find the home directory: set USERPROFILE or REPO_APY_CONFIG to locate the config file",
  );
});

Deno.test("without a config file and with REPO_APY_HOST set, the CLI asks only for REPO_APY_PAT", async () => {
  await using home = await tempHome();
  const run = await runCli(home.dir, ["records", "show-info", "-r", "1"], {
    env: { REPO_APY_HOST: "http://127.0.0.1:9" },
    permissions: [
      "--allow-env=REPO_APY_CONFIG,HOME,REPO_APY_HOST,REPO_APY_PAT,REPO_APY_INSTANCE",
      `--allow-read=${home.dir}`,
      "--allow-net=127.0.0.1",
    ],
  });
  assertEquals(run.code, 1);
  assertEquals(
    run.stderr,
    `Error: No config file at ${home.configPath}: run 'repo-apy config create' and then ` +
      "'repo-apy config set-host' / 'set-pat', or set REPO_APY_PAT\n",
  );
});

Deno.test("an OS error of a download names the target the library reports, not the OS's path", () => {
  const denied = new Deno.errors.PermissionDenied(
    "Permission denied (os error 13): open '/elsewhere/.tmp-123'",
  );
  assertEquals(reported(new LocalFileError("/data/out/run1.h5", denied)), [
    "Error: No permission to access '/data/out/run1.h5': check the permissions of the file and " +
    "its folder\n",
  ]);
});

Deno.test("an OS error of a folder upload names the file the upload failed on", () => {
  const denied = new Deno.errors.PermissionDenied("Permission denied (os error 13)");
  const done = { uploaded: [], skipped: [] };
  const failed = new UploadFilesError("x", "/data/in/b.txt", done, denied);
  const error = new RepoApyError(`Uploading '/data/in/b.txt' failed (${denied.message}); …`, {
    cause: failed,
  });
  assertEquals(reported(error), [
    "Error: No permission to access '/data/in/b.txt': check the permissions of the file and its " +
    "folder\n",
  ]);
});
