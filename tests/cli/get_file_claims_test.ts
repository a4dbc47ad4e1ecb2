// `records get-file` over several records: a path written for one record is never written again
// for another in the same command, not even with -f (the second gets a numbered name).
import { assertEquals } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { createRecord, listDir, ok, tempDir } from "./_records.ts";

async function twoRecords(server: Awaited<ReturnType<typeof startServer>>) {
  const ids: number[] = [];
  for (const identifier of ["first", "second"]) {
    const id = await createRecord(server, identifier);
    await ok(server, ["add-string-as-file", "-r", String(id), "-s", identifier, "-n", "same.txt"]);
    ids.push(id);
  }
  return ids;
}

Deno.test("records get-file -T 1,2 -f keeps both records' same-named files", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const ids = await twoRecords(server);
  await ok(server, ["get-file", "-T", ids.join(","), "-p", dir.path, "-f"]);
  assertEquals(await listDir(dir.path), ["same.txt", "same_2.txt"]);
  assertEquals(await Deno.readTextFile(`${dir.path}/same.txt`), "first");
  assertEquals(await Deno.readTextFile(`${dir.path}/same_2.txt`), "second");
  // A second forced run replaces the same two paths, again one per record.
  await ok(server, ["get-file", "-T", ids.join(","), "-p", dir.path, "-f", "-n", "same.txt"]);
  assertEquals(await listDir(dir.path), ["same.txt", "same_2.txt"]);
  assertEquals(await Deno.readTextFile(`${dir.path}/same_2.txt`), "second");
});

Deno.test("records get-file -u -f with identifiers that sanitise alike keeps both files", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const ids = await twoRecords(server);
  // Both identifiers become the folder 'x_y' ('x/y' is sanitised).
  server.addFault({ method: "GET", path: "/records/", jsonFields: { identifier: "x/y" } });
  await ok(server, ["get-file", "-T", ids.join(","), "-p", dir.path, "-u", "-f"]);
  assertEquals(await listDir(dir.path), ["x_y"]);
  assertEquals(await listDir(`${dir.path}/x_y`), ["same.txt", "same_2.txt"]);
  const texts = [
    await Deno.readTextFile(`${dir.path}/x_y/same.txt`),
    await Deno.readTextFile(`${dir.path}/x_y/same_2.txt`),
  ];
  assertEquals(texts.sort(), ["first", "second"]);
});
