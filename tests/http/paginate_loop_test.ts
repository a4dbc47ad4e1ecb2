// A hostile server whose page links loop must not keep an iterator (or `--json`) going forever.

import { assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { RepoApyError } from "../../lib/errors.ts";
import { paginateItems } from "../../lib/http/paginate.ts";
import { Transport } from "../../lib/http/transport.ts";
import { startServer } from "../../lib/testing/mod.ts";

Deno.test("paginate() stops with an error when the server links back to a page it sent", async () => {
  await using server = await startServer();
  const self = `${server.url}/api/licenses?page=1&per_page=1`;
  server.addFault({
    method: "GET",
    path: "/licenses",
    jsonFields: {
      _pagination: { page: 1, per_page: 1, total_pages: 2, total_items: 2, _links: { next: self } },
    },
  });
  await using transport = new Transport({
    settings: { host: server.url, pat: server.pat },
    retry: { maxAttempts: 1 },
  });
  const error = await assertRejects(
    () => Array.fromAsync(paginateItems(transport, "/licenses", { per_page: 1 })),
    RepoApyError,
  );
  assertStringIncludes(error.message, "page links loop");
  const requests = server.log.filter((entry) => entry.path.endsWith("/licenses"));
  assertEquals(requests.length, 2);
});
