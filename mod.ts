/**
 * repo-apy: a client for the HTTP API v1 of a research data repository (records, files, extra
 * metadata, collections, templates, groups, users, search, trash, revisions, import/export).
 *
 * Importing this module needs no permission. Each operation needs only what it touches:
 * `--allow-net=<host>` for requests, `--allow-read`/`--allow-write` for the files it streams,
 * and `--allow-env=REPO_APY_CONFIG,HOME` plus read access to the config file only when the
 * config file is used (host or PAT not given directly).
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true, title: "Sample 1" });
 * await record.uploadString("hello", "hello.txt");
 * console.log((await record.getFileByName("hello.txt")).size); // 5
 * ```
 *
 * This entry point is the client: {@linkcode RepoManager} and the resource classes it hands out,
 * the errors, the option types, conversion and a few utilities. The machinery behind it has its
 * own entry points: `@repo/apy/http` (the transport, pagination, retries, the pacer and the
 * protocol vocabulary: the server's JSON types such as `RecordJson`, for writing your own
 * endpoints), `@repo/apy/config` (the config
 * file), `@repo/apy/import` (ELN, JSON Schema and SHACL imports), `@repo/apy/sync` (folders kept in step
 * with records and collections, and the watchers), `@repo/apy/cli` (the CLI),
 * `@repo/apy/cli/kit` (its reusable parts) and
 * `@repo/apy/testing` (a local repository server).
 *
 * @module
 */

// The client.
export { RepoManager, type RepoManagerOptions } from "./lib/manager/repo_manager.ts";
export { Resource, type ResourceSelector } from "./lib/resources/resource.ts";
export { SharedResource, type Tagged, TaggedResource } from "./lib/resources/shared.ts";
export {
  type FileChanges,
  type MetadataOptions,
  type RecordExportOptions,
  type RecordExportType,
  type RecordLinkChanges,
  type RecordLinksQuery,
  RepoRecord,
  type UploadStringOptions,
} from "./lib/model/record.ts";
export {
  type CollectionExportType,
  type CollectionInfo,
  RepoCollection,
} from "./lib/model/collection.ts";
export { RepoTemplate, type TemplateExportType } from "./lib/model/template.ts";
export { RepoGroup } from "./lib/resources/group.ts";
export { type IdentityType, RepoUser, type UserSelector } from "./lib/resources/user.ts";
export {
  type ExtrasQuery,
  RepoSearch,
  type ResourceIdsOptions,
  type SearchParams,
  type SearchResultJson,
  type SearchType,
  type UserSearchParams,
} from "./lib/resources/search.ts";
export { type FilterParams, RepoMisc } from "./lib/resources/misc.ts";

// Errors.
export { ConfigurationError, InputError, MissingSchemaError, RepoApyError } from "./lib/errors.ts";
export {
  ConnectionError,
  type ConnectionErrorOptions,
  RedirectError,
  RequestError,
  type RequestErrorInit,
  ResponseTooLargeError,
  TimeoutError,
  TlsError,
} from "./lib/http/errors.ts";
export {
  ConfigFileError,
  type ConfigFileErrorInit,
  type ConfigFileProblem,
} from "./lib/config/errors.ts";
export {
  MetadataError,
  type MetadataErrorInit,
  ResourceNotFoundError,
  TooManyResultsError,
} from "./lib/resources/errors.ts";
export {
  FilesExistError,
  IncompleteDownloadError,
  IntegrityError,
  type IntegrityFacts,
  LocalFileError,
  type PartialFile,
  UploadError,
  type UploadErrorInit,
  type UploadFilesDone,
  UploadFilesError,
  type UploadLeft,
  type UploadMismatch,
} from "./lib/transfer/errors.ts";
export { IncompleteListingError, type IncompleteListingFacts } from "./lib/http/paginate.ts";
export { ChecksumMismatchError, ElnImportError } from "./lib/import/eln/errors.ts";

// Options.
export type { ConnectionSettings, SettingsOptions, SettingSource } from "./lib/config/settings.ts";
export type { DirectSetting } from "./lib/config/errors.ts";
export type { Logger, LogLevel } from "./lib/http/log.ts";
export type { RetryOptions } from "./lib/http/retry.ts";
export type { ListOptions } from "./lib/http/list_options.ts";
export type { DownloadFileOptions, DownloadStreamOptions } from "./lib/transfer/download.ts";
export type {
  DownloadAllFilesOptions,
  DownloadFilesOptions,
} from "./lib/transfer/download_files.ts";
export type { UploadFileOptions, UploadSource } from "./lib/transfer/upload.ts";
export type {
  LocalUploadFile,
  UploadFilesOptions,
  UploadFilesPlan,
  UploadFilesProgress,
} from "./lib/transfer/upload_files.ts";
export type { ExportMetadataOptions } from "./lib/transfer/export_metadata.ts";
export { WatchLockedError, type WatchLockOwner } from "./lib/transfer/watch.ts";
export type {
  ExportOptions,
  ExportStreamOptions,
  ResourceExportOptions,
} from "./lib/transfer/export.ts";
export type { Progress, ProgressCallback } from "./lib/transfer/progress.ts";

// Constants the spec names.
export { EXTRAS_MAX_INTEGER, EXTRAS_MIN_INTEGER, RESOURCE_ROLES } from "./lib/http/protocol.ts";
export { VERSION } from "./lib/http/version.ts";

// Conversion.
export {
  isIsoDate,
  JsonNumber,
  jsonToRepo,
  type JsonToRepoOptions,
  type JsonValue,
  jsonValueToPlain,
  normalizeIsoDate,
  parseJson,
  type ParseJsonOptions,
  type PlainJson,
  repoToJson,
} from "./lib/convert/mod.ts";
export {
  flattenExtras,
  getExtra,
  mergeExtras,
  type MergeExtrasOptions,
  validateExtras,
} from "./lib/resources/metadata.ts";

// Utilities.
export { appendIdentifierSuffix, generateIdentifier } from "./lib/utils/identifier.ts";
export { globFilter, globToRegExp } from "./lib/utils/glob.ts";
export { safeFileName, type SafeFileNameOptions } from "./lib/utils/file_name.ts";
export {
  getResourceType,
  type RepoResourceType,
  RESOURCE_TYPES,
} from "./lib/utils/resource_type.ts";
