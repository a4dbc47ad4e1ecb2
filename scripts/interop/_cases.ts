// The invocations the interop run gives both clients: every command of kadi-apy 0.51.0 at least
// once, with the flags both take, against the fixture of _fixture.ts (ids are the fixture's).
// `files` are put into the working directory first; `stdin` answers prompts. Add a case that
// shows a difference on purpose to known_differences.ts and docs/compatibility.md as well.

/** One invocation. */
export interface InteropCase {
  /** Name in the report (default: the arguments); unique. */
  name?: string;
  /** Arguments after the program name. */
  args: string[];
  /** Lines fed to stdin. */
  stdin?: string;
  /** Files (name → text) written into the working directory before the run. */
  files?: { [name: string]: string };
  /**
   * An .eln file written into the working directory as `crate.eln`: `self` is a record exported
   * by the local server as RO-Crate, `typed` a crate whose PNG and gzip files declare the MIME
   * types `image/x-png` and `application/octet-stream`, any other value a file of
   * ../shared/corpus/eln/.
   */
  eln?: string;
}

const SCHEMA = JSON.stringify({
  title: "Sample schema",
  type: "object",
  properties: { mass: { type: "number", default: 1.0 }, name: { type: "string" } },
});

const SHAPES = `@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix ex: <https://example.org/> .
ex:shape a sh:NodeShape ; dcterms:title "Shapes" ;
  sh:property [ sh:name "mass" ; sh:path ex:mass ; sh:datatype xsd:decimal ; sh:defaultValue 1.0 ] .
`;

/** Three definitions, shared but not recursive: `l1 = allOf[$ref l0]` plus `x1: $ref l0`. */
const SHARED_SCHEMA = JSON.stringify({
  title: "Shared definitions",
  type: "object",
  properties: { p: { $ref: "#/$defs/l1" } },
  $defs: {
    l0: { type: "object", properties: { a: { type: "string" } } },
    l1: { allOf: [{ $ref: "#/$defs/l0" }], properties: { x1: { $ref: "#/$defs/l0" } } },
  },
});

/** Every invocation, by group. */
export const CASES: InteropCase[] = [
  // collections
  { args: ["collections", "create", "-i", "col-new", "-t", "New", "-v", "PUBLIC"] },
  { args: ["collections", "create", "-i", "col-a", "-e"] },
  { args: ["collections", "edit", "-C", "col-a", "-t", "Renamed", "-d", "About", "-v", "public"] },
  { args: ["collections", "show-info", "-C", "col-a", "-d", "-r", "-s"] },
  { args: ["collections", "add-user", "-C", "col-b", "-u", "2", "-p", "editor"] },
  { args: ["collections", "remove-user", "-C", "col-a", "-u", "2"] },
  { args: ["collections", "add-group-role", "-C", "col-b", "-g", "1", "-p", "member"] },
  { args: ["collections", "remove-group-role", "-C", "col-a", "-g", "1"] },
  { args: ["collections", "delete", "-C", "col-b", "--i-am-sure"] },
  { args: ["collections", "delete", "-C", "col-b"] },
  { args: ["collections", "add-record-link", "-C", "col-b", "-R", "rec-b"] },
  { args: ["collections", "remove-record-link", "-C", "col-a", "-R", "rec-a"] },
  { args: ["collections", "add-collection-link", "-C", "col-a", "-L", "col-b"] },
  { args: ["collections", "add-collection-link", "-C", "col-a", "-L", "col-c"] },
  { args: ["collections", "add-collection-link", "-C", "col-c", "-L", "col-a"] },
  { args: ["collections", "remove-collection-link", "-C", "col-a", "-L", "col-c"] },
  { args: ["collections", "add-tag", "-C", "col-a", "-t", "x,Y"] },
  { args: ["collections", "remove-tag", "-C", "col-a", "-t", "beta"] },
  { args: ["collections", "get-collections", "-t", "beta"] },
  { args: ["collections", "get-collections", "-u", "1"] },
  { args: ["collections", "get-collection-ids", "-p"] },
  { args: ["collections", "export", "-C", "col-a", "-p", "."] },
  { args: ["collections", "export", "-C", "col-a", "-p", "."], files: { "col-a.json": "{}" } },
  // config
  { args: ["config", "create"] },
  { args: ["config", "show-instances"] },
  { args: ["config", "set-host", "-I", "local"], stdin: "http://127.0.0.1:1\n" },
  { args: ["config", "set-pat", "-I", "local"], stdin: "pat_other\n" },
  { args: ["config", "add-instance", "-I", "second"], stdin: "pat_second\nhttp://127.0.0.1:1\n" },
  { args: ["config", "change-default-instance", "-I", "local"] },
  { args: ["config", "rename-instance", "-I", "local", "-N", "renamed"] },
  { args: ["config", "activate-autocompletion", "-s", "bash"] },
  { args: ["config", "get-kadi-info"] },
  // groups
  { args: ["groups", "create", "-i", "grp-new", "-t", "New group"] },
  { args: ["groups", "edit", "-G", "grp-a", "-t", "Group A2", "-d", "About"] },
  { args: ["groups", "show-info", "-G", "grp-a", "-d"] },
  { args: ["groups", "add-user", "-G", "grp-a", "-u", "2", "-p", "admin"] },
  { args: ["groups", "remove-user", "-G", "grp-a", "-u", "2"] },
  { args: ["groups", "delete", "-G", "grp-a", "--i-am-sure"] },
  { args: ["groups", "get-groups"] },
  { args: ["groups", "get-groups", "-u", "1", "-v", "public", "-n", "1", "-p", "2"] },
  { args: ["groups", "get-groups", "-D", "local", "-U", "testuser", "-v", "private"] },
  { args: ["groups", "get-groups", "-i", "-u", "1"] },
  // misc
  { args: ["misc", "get-deleted-resources"] },
  { args: ["misc", "restore-resource", "-t", "record", "-i", "3"] },
  { args: ["misc", "purge-resource", "-t", "record", "-i", "3"] },
  { args: ["misc", "get-licenses"] },
  { args: ["misc", "get-roles"] },
  { args: ["misc", "get-tags"] },
  { args: ["misc", "import-eln", "-p", "crate.eln"], eln: "self" },
  {
    name: "misc import-eln -p crate.eln (eLabFTW)",
    args: ["misc", "import-eln", "-p", "crate.eln"],
    eln: "elabftw/export.eln",
  },
  { args: ["misc", "import-json-schema", "-p", "schema.json"], files: { "schema.json": SCHEMA } },
  { args: ["misc", "import-shacl", "-p", "shapes.ttl"], files: { "shapes.ttl": SHAPES } },
  { args: ["misc", "reuse-collection", "-c", "1", "-s", "v2", "-r", "all"] },
  { args: ["misc", "reuse-collection", "-c", "1", "-s", "v3", "-l", "1"] },
  { args: ["misc", "reuse-collection", "-c", "1", "-s", "v4"] },
  { args: ["misc", "reuse-collection", "-c", "1"] },
  { args: ["misc", "reuse-collection", "-c", "1", "-i"], stdin: "y\nn\nnext\n" },
  // records
  { args: ["records", "create", "-i", "rec-new", "-t", "New", "-v", "PUBLIC"] },
  { args: ["records", "create", "-i", "rec-a", "-e"] },
  { args: ["records", "edit", "-R", "rec-a", "-t", "T", "-d", "D", "-y", "sample"] },
  { args: ["records", "add-user", "-R", "rec-b", "-u", "2", "-p", "collaborator"] },
  { args: ["records", "add-group-role", "-R", "rec-b", "-g", "1", "-p", "editor"] },
  { args: ["records", "remove-group-role", "-R", "rec-a", "-g", "1"] },
  { args: ["records", "show-info", "-R", "rec-a", "-d", "-l", "-m", "-v"] },
  {
    args: ["records", "add-files", "-R", "rec-b", "-n", "data.txt"],
    files: { "data.txt": "1,2\n" },
  },
  { args: ["records", "add-files", "-R", "rec-a", "-n", "a.txt"], files: { "a.txt": "other\n" } },
  { args: ["records", "add-files", "-R", "rec-a", "-n", "./a.txt"], files: { "a.txt": "hello\n" } },
  { args: ["records", "add-string-as-file", "-R", "rec-b", "-s", "hello", "-n", "s.txt"] },
  { args: ["records", "remove-user", "-R", "rec-a", "-u", "2"] },
  { args: ["records", "delete", "-R", "rec-b", "--i-am-sure"] },
  { args: ["records", "add-metadatum", "-R", "rec-a", "-m", "new", "-v", "1.0", "-t", "FLOAT"] },
  { args: ["records", "add-metadatum", "-R", "rec-a", "-m", "n", "-v", "4", "-t", "integer"] },
  {
    args: [
      "records",
      "add-metadata",
      "-R",
      "rec-a",
      "-m",
      '[{"key":"k","type":"float","value":2.0}]',
    ],
  },
  { args: ["records", "delete-metadatum", "-R", "rec-a", "-m", "n"] },
  { args: ["records", "delete-all-metadata", "-R", "rec-a", "--i-am-sure"] },
  { args: ["records", "get-file", "-R", "rec-a", "-p", "."] },
  { args: ["records", "add-tag", "-R", "rec-a", "-t", "Beta,gamma"] },
  { args: ["records", "remove-tag", "-R", "rec-a", "-t", "alpha"] },
  { args: ["records", "add-record-link", "-R", "rec-b", "-L", "rec-a", "-n", "back"] },
  { args: ["records", "add-record-link", "-R", "rec-a", "-L", "rec-b", "-n", "feeds"] },
  { args: ["records", "delete-record-link", "-R", "rec-a", "-l", "1"] },
  { args: ["records", "add-collection-link", "-R", "rec-b", "-C", "col-a"] },
  { args: ["records", "add-collection-link", "-R", "rec-a", "-C", "col-a"] },
  { args: ["records", "remove-collection-link", "-R", "rec-a", "-C", "col-a"] },
  { args: ["records", "show-record-links-to", "-R", "rec-a"] },
  { args: ["records", "get-metadatum", "-R", "rec-a", "-n", "temp"] },
  { args: ["records", "get-metadatum", "-R", "rec-a", "-n", "missing"] },
  { args: ["records", "get-records", "-q", "rec"] },
  { args: ["records", "get-records", "-i"] },
  { args: ["records", "get-records", "-U", "testuser", "-D", "local", "-t", "alpha"] },
  { args: ["records", "edit-file", "-R", "rec-a", "-n", "a.txt", "-a", "b.txt"] },
  { args: ["records", "delete-file", "-R", "rec-a", "-n", "a.txt"] },
  { args: ["records", "delete-files", "-R", "rec-a", "--i-am-sure"] },
  { args: ["records", "get-record-ids", "-p"] },
  { args: ["records", "export", "-R", "rec-a", "-p", "."] },
  {
    args: ["records", "export", "-R", "rec-a", "-e", "JSON", "-p", "."],
    files: { "rec-a.json": "{}" },
  },
  { args: ["records", "export-metadata", "-R", "rec-a", "-p", "."] },
  { args: ["records", "export", "-R", "rec-a", "-e", "pdf", "-P"] },
  { args: ["records", "export", "-T", "1,2", "-e", "rdf", "-p", "."] },
  { args: ["records", "update-record-link", "-R", "rec-a", "-l", "1", "-n", "renamed"] },
  { args: ["records", "delete", "-R", "rec-b"] },
  // templates
  {
    args: [
      "templates",
      "create",
      "-i",
      "tpl-new",
      "-y",
      "extras",
      "-d",
      '[{"key":"x","type":"float","value":1.0}]',
    ],
  },
  { args: ["templates", "create", "-i", "tpl-bad", "-d", "{bad"] },
  { args: ["templates", "delete", "-T", "tpl-a", "--i-am-sure"] },
  { args: ["templates", "get-templates"] },
  { args: ["templates", "edit", "-T", "tpl-a", "-i", "New title"] },
  { args: ["templates", "add-user", "-T", "tpl-a", "-u", "2", "-p", "member"] },
  { args: ["templates", "remove-user", "-T", "tpl-x", "-u", "2"] },
  { args: ["templates", "add-group-role", "-T", "tpl-a", "-g", "1", "-p", "member"] },
  { args: ["templates", "remove-group-role", "-T", "tpl-x", "-g", "1"] },
  { args: ["templates", "export", "-T", "tpl-x", "-p", "."] },
  { args: ["templates", "export", "-T", "tpl-x", "-e", "shacl", "-P"] },
  { args: ["templates", "show-info", "-T", "tpl-x", "-a"] },
  // users
  { args: ["users", "show-info", "-u", "2"] },
  { args: ["users", "show-info"] },
  { args: ["users", "get-users"] },
  // issue 31: exit codes of the Python client, paths that must exist, messages, imports
  { args: ["records", "create"] },
  { args: ["collections", "create", "-t", "No identifier"] },
  { args: ["groups", "create", "-t", "No identifier"] },
  { args: ["records", "add-user", "-R", "rec-b", "-U", "jdoe", "-p", "member"] },
  { args: ["groups", "add-user", "-G", "grp-a", "-U", "jdoe", "-p", "admin"] },
  { args: ["users", "show-info", "-U", "jdoe"] },
  { args: ["records", "edit", "-R", "rec-a", "-r", "1", "-t", "Both"] },
  { args: ["records", "edit", "-t", "Neither"] },
  { args: ["records", "export", "-R", "rec-a", "-e", "rdf", "-P"] },
  { args: ["collections", "export", "-C", "col-a", "-e", "rdf", "-P"] },
  { args: ["records", "export", "-R", "rec-a", "-p", "no-such-dir/x"] },
  { args: ["records", "add-metadata", "-R", "rec-a", "-p", "missing.json"] },
  { args: ["misc", "import-eln", "-p", "missing.eln"] },
  { args: ["misc", "import-json-schema", "-p", "missing.json"] },
  { args: ["records", "add-metadatum", "-R", "rec-a", "-m", "s", "-v", "red", "-u", "nm"] },
  { args: ["records", "get-metadatum", "-R", "rec-a", "-n", "n", "-i", "unit", "-p"] },
  { args: ["records", "add-record-link", "-R", "rec-a", "-L", "rec-a", "-n", "self"] },
  { args: ["records", "delete-record-link", "-R", "rec-a", "-l", "999"] },
  { args: ["records", "remove-collection-link", "-R", "rec-b", "-C", "col-a"] },
  {
    args: [
      "records",
      "add-metadata",
      "-R",
      "rec-a",
      "-m",
      '[{"key":"k","type":"int","value":2.0}]',
    ],
  },
  { args: ["templates", "get-templates", "-q", "tpl"] },
  {
    name: "misc import-json-schema -p shared.json (shared, not recursive)",
    args: ["misc", "import-json-schema", "-p", "shared.json"],
    files: { "shared.json": SHARED_SCHEMA },
  },
  {
    name: "misc import-eln -p crate.eln (typed files)",
    args: ["misc", "import-eln", "-p", "crate.eln"],
    eln: "typed",
  },
];
