import { assertEquals, assertThrows } from "../_assert.ts";
import { apiBaseUrl, appendQuery, endpointUrl, pathSegment } from "../../lib/http/url.ts";
import { InputError, MissingSchemaError } from "../../lib/errors.ts";

Deno.test("apiBaseUrl() appends basePath and /api/v1 to the host's origin", () => {
  assertEquals(apiBaseUrl("https://repo.example/").href, "https://repo.example/api/v1");
  assertEquals(
    apiBaseUrl("https://repo.example", "kadi/").href,
    "https://repo.example/kadi/api/v1",
  );
  assertEquals(
    apiBaseUrl("http://127.0.0.1:5000", "/a/b").href,
    "http://127.0.0.1:5000/a/b/api/v1",
  );
});

Deno.test("apiBaseUrl() throws MissingSchemaError for a host without scheme", () => {
  const error = assertThrows(() => apiBaseUrl("repo.example"), MissingSchemaError);
  assertEquals(error.host, "repo.example");
  assertEquals(error.message.includes("https://repo.example"), true);
  assertThrows(() => apiBaseUrl("ftp://repo.example"), InputError);
});

Deno.test("endpointUrl() rebases absolute server links onto the configured base", () => {
  const base = apiBaseUrl("https://repo.example", "/sub");
  assertEquals(
    endpointUrl(base, "http://internal:5000/api/v1/records/1/files?page=2").href,
    "https://repo.example/sub/api/v1/records/1/files?page=2",
  );
  assertEquals(
    endpointUrl(base, "http://internal:5000/api/records/1").href,
    "https://repo.example/sub/api/v1/records/1",
  );
  assertEquals(endpointUrl(base, "/records").href, "https://repo.example/sub/api/v1/records");
  assertEquals(endpointUrl(base, "records").href, "https://repo.example/sub/api/v1/records");
});

Deno.test("appendQuery() repeats keys of plain lists and JSON-encodes objects and lists of objects", () => {
  const params = new URLSearchParams();
  appendQuery(params, {
    tag: ["a", "b"],
    filter: { user: true, links: "out" },
    extras: [{ key: "x", str: "y" }],
    flag: false,
    skip: undefined,
    none: null,
  });
  assertEquals(params.getAll("tag"), ["a", "b"]);
  assertEquals(JSON.parse(params.get("filter") ?? ""), { user: true, links: "out" });
  assertEquals(JSON.parse(params.get("extras") ?? ""), [{ key: "x", str: "y" }]);
  assertEquals(params.get("flag"), "false");
  assertEquals(params.has("skip") || params.has("none"), false);
});

Deno.test("endpointUrl() refuses an absolute non-API URL on another host, keeps the same host", () => {
  const base = apiBaseUrl("https://repo.example");
  const error = assertThrows(() => endpointUrl(base, "https://evil.example/collect"), InputError);
  assertEquals(error.message.includes("evil.example"), true);
  assertEquals(
    endpointUrl(base, "https://repo.example/static/x").href,
    "https://repo.example/static/x",
  );
});

Deno.test("pathSegment() encodes one segment and refuses empty and dot segments", () => {
  assertEquals(pathSegment("a b/c", "file id"), "a%20b%2Fc");
  for (const value of ["", " ", ".", ".."]) {
    assertThrows(() => pathSegment(value, "file id"), InputError);
  }
});
