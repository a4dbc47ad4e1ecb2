// searchQuery(): camelCase search parameters to the server's wire names.
import { searchQuery } from "../../lib/resources/search.ts";
import { assertEquals } from "../_assert.ts";

Deno.test("searchQuery() maps every parameter to its wire name and JSON-encodes extras", () => {
  const extras = [{ key: "t", type: "numeric" as const, numeric: { min: 1 } }];
  assertEquals(
    searchQuery({
      query: "q",
      sort: "-title",
      visibility: "public",
      explicitPermissions: true,
      user: [2, 3],
      tags: ["a", "b"],
      tagOperator: "and",
      type: "sample",
      collections: [4],
      childCollections: true,
      mimetypes: ["text/csv"],
      extras,
      memberOnly: false,
      page: 2,
      perPage: 50,
    }),
    {
      query: "q",
      sort: "-title",
      visibility: "public",
      explicit_permissions: true,
      user: [2, 3],
      tag: ["a", "b"],
      tag_operator: "and",
      type: "sample",
      collection: [4],
      child_collections: true,
      mimetype: ["text/csv"],
      extras: JSON.stringify(extras),
      member_only: false,
      page: 2,
      per_page: 50,
    },
  );
});

Deno.test("searchQuery() leaves out empty lists; other keys keep their names", () => {
  assertEquals(searchQuery({ tags: [], mimetypes: [], collections: [] }), {});
  assertEquals(searchQuery({ filter: "x", inactive: true }), { filter: "x", inactive: true });
});
