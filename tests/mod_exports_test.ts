/**
 * The main entry point's public surface, in the spirit of Deno std's `check_mod_exports`: every
 * symbol that reaches `@repo/apy` (`mod.ts`) must be on the curated list below, and every listed
 * symbol must still be there. Each name is a semver promise; plumbing belongs behind a subpath
 * (`./http`, `./config`, `./import`, `./cli`, `./testing`). Adding a name is a decision: add it
 * here and to docs/api-names.md in the same change.
 */

import { assertEquals } from "./_assert.ts";

/** The curated public names of `mod.ts` (values and types). */
const CURATED = [
  "appendIdentifierSuffix",
  "ChunkJson",
  "CollectionExportType",
  "CollectionInfo",
  "CollectionJson",
  "ConfigFileError",
  "ConfigFileErrorInit",
  "ConfigFileProblem",
  "ConfigurationError",
  "ConnectionError",
  "ConnectionErrorOptions",
  "ConnectionSettings",
  "DownloadAllFilesOptions",
  "DownloadFileOptions",
  "DownloadFilesOptions",
  "DownloadStreamOptions",
  "ErrorBodyJson",
  "ExportMetadataOptions",
  "ExportOptions",
  "ExportStreamOptions",
  "Extra",
  "ExtrasQuery",
  "ExtraType",
  "FileChanges",
  "FileJson",
  "FilesExistError",
  "FilterParams",
  "flattenExtras",
  "generateIdentifier",
  "getExtra",
  "getResourceType",
  "globFilter",
  "globToRegExp",
  "GroupJson",
  "GroupRoleJson",
  "IdentityJson",
  "IdentityType",
  "IncompleteDownloadError",
  "InfoJson",
  "InputError",
  "IntegrityError",
  "IntegrityFacts",
  "isIsoDate",
  "JsonNumber",
  "jsonToRepo",
  "JsonToRepoOptions",
  "JsonValue",
  "jsonValueToPlain",
  "LicenseJson",
  "Links",
  "ListOptions",
  "LocalFileError",
  "LocalUploadFile",
  "Logger",
  "LogLevel",
  "mergeExtras",
  "MergeExtrasOptions",
  "MetadataError",
  "MetadataErrorInit",
  "MetadataOptions",
  "MissingSchemaError",
  "normalizeIsoDate",
  "PageJson",
  "PaginationJson",
  "parseJson",
  "ParseJsonOptions",
  "PartialFile",
  "PlainJson",
  "Progress",
  "ProgressCallback",
  "RecordExportOptions",
  "RecordExportType",
  "RecordJson",
  "RecordLinkChanges",
  "RecordLinkJson",
  "RecordLinksQuery",
  "RedirectError",
  "RepoApyError",
  "RepoCollection",
  "RepoGroup",
  "RepoManager",
  "RepoManagerOptions",
  "RepoMisc",
  "RepoRecord",
  "RepoResourceType",
  "RepoSearch",
  "RepoTemplate",
  "repoToJson",
  "RepoUser",
  "RequestError",
  "RequestErrorInit",
  "Resource",
  "RESOURCE_TYPES",
  "ResourceChanges",
  "ResourceExportOptions",
  "ResourceIdsOptions",
  "ResourceJson",
  "ResourceNotFoundError",
  "ResourceSelector",
  "ResourceType",
  "ResponseTooLargeError",
  "RetryOptions",
  "RevisionJson",
  "RoleInfoJson",
  "RolesJson",
  "safeFileName",
  "SafeFileNameOptions",
  "SearchParams",
  "SearchResultJson",
  "SearchType",
  "SettingsOptions",
  "SharedResource",
  "Tagged",
  "TaggedResource",
  "TagJson",
  "TemplateExportType",
  "TemplateJson",
  "TemplateType",
  "TimeoutError",
  "TlsError",
  "TooManyResultsError",
  "TrashableType",
  "TrashItemJson",
  "UploadError",
  "UploadErrorInit",
  "UploadFileOptions",
  "UploadFilesDone",
  "UploadFilesError",
  "UploadFilesOptions",
  "UploadFilesPlan",
  "UploadFilesProgress",
  "UploadJson",
  "UploadLeft",
  "UploadMismatch",
  "UploadSource",
  "UploadStringOptions",
  "UploadTaskJson",
  "UserJson",
  "UserRoleJson",
  "UserSearchParams",
  "UserSelector",
  "validateExtras",
];

/** The symbols `deno doc` finds on an entry point, as a user of the package sees them. */
async function exportedNames(entry: string): Promise<string[]> {
  const { code, stdout, stderr } = await new Deno.Command("deno", {
    args: ["doc", "--json", entry],
    cwd: new URL("../", import.meta.url),
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(code, 0, new TextDecoder().decode(stderr));
  const doc = JSON.parse(new TextDecoder().decode(stdout)) as {
    nodes: { [module: string]: { symbols?: { name: string }[] } };
  };
  const names = Object.values(doc.nodes).flatMap((node) => node.symbols ?? []);
  return [...new Set(names.map((symbol) => symbol.name))];
}

const byName = (a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase());

Deno.test("mod.ts exports exactly the curated names: nothing unlisted reaches the main entry", async () => {
  const exported = await exportedNames("mod.ts");
  const unlisted = exported.filter((name) => !CURATED.includes(name)).sort(byName);
  const missing = CURATED.filter((name) => !exported.includes(name)).sort(byName);
  assertEquals({ unlisted, missing }, { unlisted: [], missing: [] });
});

Deno.test("the curated list is sorted and has no duplicates (one place to read the surface)", () => {
  assertEquals([...new Set(CURATED)].sort(byName), CURATED);
});
