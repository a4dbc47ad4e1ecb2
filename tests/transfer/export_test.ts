import { assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { InputError } from "../../lib/errors.ts";
import { LocalFileError } from "../../lib/transfer/errors.ts";
import type { RecordExportType } from "../../lib/model/record.ts";
import { listDir, setup } from "./_helpers.ts";

async function head(path: string, bytes: number): Promise<number[]> {
  using file = await Deno.open(path);
  const buffer = new Uint8Array(bytes);
  await file.read(buffer);
  return [...buffer];
}

Deno.test("export() writes JSON to a file path", async () => {
  await using env = await setup({ identifier: "exp-rec" });
  const path = await env.record.export(`${env.dir}/record.json`);
  assertEquals(path, `${env.dir}/record.json`);
  const data = JSON.parse(await Deno.readTextFile(path));
  assertEquals(data.identifier, "exp-rec");
});

Deno.test("export() names the file after the identifier with the type's extension", async () => {
  await using env = await setup({ identifier: "exp-rec" });
  const cases: [RecordExportType, string, number[]][] = [
    ["json", "exp-rec.json", [0x7b]],
    ["rdf", "exp-rec.ttl", []],
    ["pdf", "exp-rec.pdf", [0x25, 0x50, 0x44, 0x46]],
    ["qr", "exp-rec.png", [0x89, 0x50, 0x4e, 0x47]],
    ["ro-crate", "exp-rec.eln", [0x50, 0x4b, 0x03, 0x04]],
  ];
  for (const [type, name, magic] of cases) {
    const path = await env.record.export(env.dir, type);
    assertEquals(path, `${env.dir}/${name}`);
    assertEquals(await head(path, magic.length), magic);
  }
  assertStringIncludes(await Deno.readTextFile(`${env.dir}/exp-rec.ttl`), "@prefix");
});

Deno.test("export() with useFolder writes into a folder named after the identifier", async () => {
  await using env = await setup({ identifier: "exp-rec" });
  const path = await env.record.export(env.dir, "ro-crate", { useFolder: true });
  assertEquals(path, `${env.dir}/exp-rec/exp-rec.eln`);
  const again = await env.record.export(env.dir, "ro-crate", { useFolder: true });
  assertEquals(again, `${env.dir}/exp-rec/exp-rec_2.eln`);
  const forced = await env.record.export(env.dir, "ro-crate", { useFolder: true, force: true });
  assertEquals(forced, path);
  assertEquals(await listDir(`${env.dir}/exp-rec`), ["exp-rec.eln", "exp-rec_2.eln"]);
});

Deno.test("export() sends the filter as JSON", async () => {
  await using env = await setup({ identifier: "exp-rec" });
  await env.record.export(env.dir, "json", { filter: { user: true, links: "in" } });
  const entry = env.server.log.find((e) => e.path.endsWith("/export/json"));
  assertEquals(
    new URLSearchParams(entry?.query).get("filter"),
    JSON.stringify({ user: true, links: "in" }),
  );
  const data = JSON.parse(await Deno.readTextFile(`${env.dir}/exp-rec.json`));
  assertEquals("creator" in data, false);
});

Deno.test("exportStream() returns the export as a stream", async () => {
  await using env = await setup({ identifier: "exp-rec" });
  const stream = await env.record.exportStream("json");
  const data = JSON.parse(await new Response(stream).text());
  assertEquals(data.identifier, "exp-rec");
  assertEquals(await listDir(env.dir), []);
});

Deno.test("export() rejects a type the resource cannot be exported as", async () => {
  await using env = await setup();
  await assertRejects(
    () => env.record.export(env.dir, "shacl" as RecordExportType),
    InputError,
  );
  assertEquals(env.server.log.filter((e) => e.path.includes("/export/")).length, 0);
});

Deno.test("exportMetadata() writes the extras as JSON", async () => {
  await using env = await setup({ identifier: "exp-rec" });
  await env.record.edit({ extras: [{ key: "temp", type: "float", value: 21.5, unit: "C" }] });
  const path = await env.record.exportMetadata(env.dir);
  assertEquals(path, `${env.dir}/exp-rec-extras.json`);
  const standard = JSON.parse(await Deno.readTextFile(path));
  assertEquals(JSON.stringify(standard).includes("temp"), true);
  const plain = await env.record.exportMetadata(`${env.dir}/plain.json`, { format: "plain" });
  assertEquals(JSON.parse(await Deno.readTextFile(plain)), { temp: 21.5 });
});

Deno.test("export() with existing: 'refuse' keeps an existing file and requests nothing", async () => {
  await using env = await setup({ identifier: "exp-rec" });
  await Deno.writeTextFile(`${env.dir}/exp-rec.json`, "mine");
  const error = await assertRejects(
    () => env.record.export(env.dir, "json", { existing: "refuse" }),
    LocalFileError,
  );
  assertEquals(error.path, `${env.dir}/exp-rec.json`);
  assertEquals(error.cause instanceof Deno.errors.AlreadyExists, true);
  const metadata = await assertRejects(
    () => env.record.exportMetadata(env.dir, { name: "exp-rec", existing: "refuse" }),
    LocalFileError,
  );
  assertEquals(metadata.path, `${env.dir}/exp-rec.json`);
  assertEquals(await Deno.readTextFile(`${env.dir}/exp-rec.json`), "mine");
  assertEquals(await listDir(env.dir), ["exp-rec.json"]);
  const forced = await env.record.export(env.dir, "json", { existing: "refuse", force: true });
  assertEquals(JSON.parse(await Deno.readTextFile(forced)).identifier, "exp-rec");
});
