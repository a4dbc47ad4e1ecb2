// A transfer's local file refused by the OS is a LocalFileError naming the target, never its
// temporary `.part` file; partFileTarget() maps a temporary name back to its target.

import { assertEquals, assertRejects } from "../_assert.ts";
import { writingFile } from "../../lib/transfer/_local_file.ts";
import { LocalFileError } from "../../lib/transfer/errors.ts";
import { partFileTarget } from "../../lib/utils/part_file.ts";
import { RepoApyError } from "../../lib/errors.ts";

Deno.test("writingFile() turns a file system error into a LocalFileError for the target", async () => {
  const denied = new Deno.errors.PermissionDenied(
    "Permission denied (os error 13): open '/data/out/.run1.h5.d63c2534.part'",
  );
  const error = await assertRejects(
    () => writingFile("/data/out/run1.h5", () => Promise.reject(denied)),
    LocalFileError,
  );
  assertEquals(error.path, "/data/out/run1.h5");
  assertEquals(error.cause, denied);
  assertEquals(error instanceof RepoApyError, true);
  // Other errors (the network's, the server's) pass unchanged.
  const other = new Deno.errors.ConnectionReset("reset");
  assertEquals(
    await writingFile("/x", () => Promise.reject(other)).catch((caught) => caught),
    other,
  );
  assertEquals(await writingFile("/x", () => Promise.resolve("/x")), "/x");
});

Deno.test("partFileTarget() maps a temporary download file to its target", () => {
  assertEquals(partFileTarget("/data/out/.run1.h5.d63c2534.part"), "/data/out/run1.h5");
  assertEquals(partFileTarget(".a b.txt.0123abcd.part"), "a b.txt");
  assertEquals(partFileTarget("out/.x.0123abcd.part"), "out/x");
  for (
    const path of [
      "/data/run1.h5",
      "/data/.run1.h5.part",
      "/d/.x.0123abcz.part",
      "/d/x.0123abcd.part",
    ]
  ) {
    assertEquals(partFileTarget(path), undefined, path);
  }
});
