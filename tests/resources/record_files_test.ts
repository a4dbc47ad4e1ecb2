import { InputError } from "../../lib/errors.ts";
import { assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { countRequests, setup, uploadText } from "./_setup.ts";

Deno.test("getFiles(), files(), getNumberFiles() list a record's files", async () => {
  await using env = await setup();
  const record = await env.manager.record({ identifier: "files", create: true });
  for (const name of ["a.txt", "b.txt", "c.txt"]) {
    await uploadText(env.manager, record.id, name, name);
  }
  assertEquals(await record.getNumberFiles(), 3);
  const page = await record.getFiles({ per_page: 2, sort: "name" });
  assertEquals(page.items.map((file) => file.name), ["a.txt", "b.txt"]);
  const all = await Array.fromAsync(record.files({ per_page: 1, sort: "name" }));
  assertEquals(all.map((file) => file.name), ["a.txt", "b.txt", "c.txt"]);
});

Deno.test("getFileInfo(), getFileByName(), getFileId(), getFileName(), hasFile()", async () => {
  await using env = await setup();
  const record = await env.manager.record({ identifier: "lookup", create: true });
  const file = await uploadText(env.manager, record.id, "dir/with space ü.txt", "hello");
  assertEquals((await record.getFileInfo(file.id)).size, 5);
  assertEquals((await record.getFileByName("dir/with space ü.txt")).id, file.id);
  assertEquals(await record.getFileId("dir/with space ü.txt"), file.id);
  assertEquals(await record.getFileName(file.id), "dir/with space ü.txt");
  assertEquals(
    [await record.hasFile("dir/with space ü.txt"), await record.hasFile("nope.txt")],
    [true, false],
  );
  assertStringIncludes(
    (await assertRejects(() => record.getFileId("nope.txt"), InputError)).message,
    "no file named 'nope.txt'",
  );
  await assertRejects(() => record.getFileName("00000000-0000-0000-0000-000000000000"), InputError);
});

Deno.test("editFile() renames and describes; refuses a taken name before sending", async () => {
  await using env = await setup();
  const record = await env.manager.record({ identifier: "edit-files", create: true });
  const a = await uploadText(env.manager, record.id, "a.txt", "a");
  await uploadText(env.manager, record.id, "b.txt", "b");
  const edited = await record.editFile(a.id, {
    name: "renamed.txt",
    description: "first",
    mimetype: "text/plain",
  });
  assertEquals([edited.name, edited.description, edited.mimetype], [
    "renamed.txt",
    "first",
    "text/plain",
  ]);
  const patches = countRequests(env.server, "PATCH", `/files/${a.id}`);
  const error = await assertRejects(() => record.editFile(a.id, { name: "b.txt" }), InputError);
  assertStringIncludes(error.message, "already has a file named 'b.txt'");
  assertEquals(countRequests(env.server, "PATCH", `/files/${a.id}`), patches);
  assertEquals((await record.editFile(a.id, { name: "renamed.txt" })).name, "renamed.txt");
  await assertRejects(() => record.editFile(a.id, {}), InputError);
});

Deno.test("deleteFile() and deleteAllFiles() delete files", async () => {
  await using env = await setup();
  const record = await env.manager.record({ identifier: "delete-files", create: true });
  const a = await uploadText(env.manager, record.id, "a.txt", "a");
  for (let i = 0; i < 3; i++) await uploadText(env.manager, record.id, `f${i}.txt`, "x");
  await record.deleteFile(a.id);
  assertEquals(await record.hasFile("a.txt"), false);
  assertEquals(await record.deleteAllFiles(), 3);
  assertEquals(await record.getNumberFiles(), 0);
});

Deno.test("hasFile(), getFileId() find names with dot segments exactly, not another endpoint", async () => {
  await using env = await setup();
  const record = await env.manager.record({ identifier: "dots", create: true });
  const odd = await uploadText(env.manager, record.id, "x/../y.txt", "odd");
  await uploadText(env.manager, record.id, "y.txt", "plain");
  assertEquals(await record.getFileId("x/../y.txt"), odd.id);
  assertEquals(
    [await record.hasFile(".."), await record.hasFile("."), await record.hasFile("a//b")],
    [false, false, false],
  );
});

Deno.test("getFileInfo(), deleteFile() refuse the file ids '.' and '..' before any request", async () => {
  await using env = await setup();
  const record = await env.manager.record({ identifier: "dot-ids", create: true });
  const before = env.server.log.length;
  for (const id of [".", ".."]) {
    await assertRejects(() => record.getFileInfo(id), InputError);
    await assertRejects(() => record.deleteFile(id), InputError);
  }
  assertEquals(env.server.log.length, before);
  assertEquals((await record.refresh()).state, "active");
});
