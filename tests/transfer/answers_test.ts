// Wrong-shaped file and upload answers get a clear error naming what is missing, never a
// TypeError from reading a field of undefined.
import { assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { RepoApyError } from "../../lib/errors.ts";
import { RequestError } from "../../lib/http/errors.ts";
import type { UploadJson } from "../../lib/http/protocol.ts";
import { uploadFile } from "../../lib/transfer/upload.ts";
import { type Env, setup } from "./_helpers.ts";

async function uploads(env: Env): Promise<UploadJson[]> {
  return (await env.transport.json<{ items: UploadJson[] }>(
    "GET",
    `${env.record.endpoint}/uploads`,
  ))
    .items;
}

Deno.test("downloadFile() of a file answered with a wrong shape says what is missing", async () => {
  await using env = await setup();
  const file = await env.record.uploadString("data", "a.txt");
  env.server.addFault({ method: "GET", path: `/files/${file.id}`, jsonBody: { id: file.id } });
  const error = await assertRejects(
    () => env.record.downloadFile(file.id, `${env.dir}/`),
    RequestError,
  );
  assertStringIncludes(error.message, "without 'name' (string)");
});

Deno.test("downloadFiles() with a listed file of a wrong shape says what is missing", async () => {
  await using env = await setup();
  await env.record.uploadString("data", "a.txt");
  env.server.addFault({ method: "GET", path: "/files", jsonFields: { name: null } });
  const error = await assertRejects(() => env.record.downloadFiles(env.dir), RepoApyError);
  assertEquals(error instanceof TypeError, false);
  assertStringIncludes(error.message, "a file without 'name' (string)");
});

Deno.test("a direct upload's data answered 201 {} is an error naming the missing key, and the upload is deleted", async () => {
  await using env = await setup();
  env.server.addFault({ method: "PUT", path: "/uploads/", jsonBody: {}, jsonStatus: 201 });
  const error = await assertRejects(
    () => uploadFile(env.record, new TextEncoder().encode("hello"), { fileName: "a.txt" }),
    RequestError,
  );
  assertStringIncludes(error.message, "answered 201 with a JSON object without 'id' (string)");
  assertEquals(error.message.includes("undefined"), false);
  assertEquals(await uploads(env), []);
});

Deno.test("an upload answered 201 {} when it is created is an error naming the missing key", async () => {
  await using env = await setup();
  env.server.addFault({ method: "POST", path: /\/uploads$/, jsonBody: {}, jsonStatus: 201 });
  const error = await assertRejects(
    () => uploadFile(env.record, new TextEncoder().encode("hello"), { fileName: "a.txt" }),
    RequestError,
  );
  assertStringIncludes(error.message, "without 'id' (string)");
});
