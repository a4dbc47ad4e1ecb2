import { assertEquals, assertRejects, assertThrows } from "../_assert.ts";
import { InputError } from "../../lib/errors.ts";
import { openLocalFile, statLocalPath, statLocalPathSync } from "../../lib/utils/local_path.ts";

const MISSING = "tests/utils/no-such-file.txt";

Deno.test("statLocalPath() says a missing path in the user's terms", async () => {
  const error = await assertRejects(() => statLocalPath(MISSING), InputError);
  assertEquals(error.message, `No file at '${MISSING}': check the path`);
  const folder = await assertRejects(
    () => statLocalPath(MISSING, { what: "file or folder" }),
    InputError,
  );
  assertEquals(folder.message, `No file or folder at '${MISSING}': check the path`);
  assertEquals((await statLocalPath("tests/utils")).isDirectory, true);
});

Deno.test("openLocalFile() opens a file, and says a missing one with the caller's hint", async () => {
  const error = await assertRejects(
    () => openLocalFile(MISSING, { hint: "check the path of the .eln file" }),
    InputError,
  );
  assertEquals(error.message, `No file at '${MISSING}': check the path of the .eln file`);
  using file = await openLocalFile("tests/utils/local_path_test.ts");
  assertEquals((await file.stat()).isFile, true);
});

Deno.test("statLocalPathSync() says a missing path as statLocalPath() does", () => {
  const error = assertThrows(() => statLocalPathSync(MISSING), InputError);
  assertEquals(error.message, `No file at '${MISSING}': check the path`);
  assertEquals(statLocalPathSync("tests/utils").isDirectory, true);
});
