/**
 * The transport layer: one {@linkcode Transport} per repository, errors, the retry policy,
 * pagination and the wire protocol's names and constants.
 *
 * @example Usage
 * ```ts
 * import { parseRetryAfter, UPLOAD_CHUNK_SIZE } from "./mod.ts";
 * console.log(parseRetryAfter("3"), UPLOAD_CHUNK_SIZE); // 3000 10000000
 * ```
 *
 * @module
 */

export { ConfigurationError, InputError, MissingSchemaError, RepoApyError } from "../errors.ts";
export {
  ConnectionError,
  type ConnectionErrorOptions,
  MAX_ERROR_BODY_BYTES,
  parseRetryAfter,
  raiseRequestError,
  redactUrl,
  RedirectError,
  RequestError,
  requestErrorFrom,
  type RequestErrorFromOptions,
  type RequestErrorInit,
  ResponseTooLargeError,
  TimeoutError,
  TlsError,
} from "./errors.ts";
export type { ListOptions } from "./list_options.ts";
export { LOG_LEVELS, type Logger, type LogLevel, silentLogger, stderrLogger } from "./log.ts";
export {
  IncompleteListingError,
  type IncompleteListingFacts,
  MAX_PAGES,
  paginate,
  paginateItems,
  type PaginateOptions,
} from "./paginate.ts";
export { hostPacer, Pacer, type PacerOptions } from "./pacer.ts";
export {
  API_PREFIX,
  API_PREFIX_UNVERSIONED,
  type ChunkJson,
  type CollectionJson,
  type ErrorBodyJson,
  EXPORT_TYPES,
  type Extra,
  EXTRA_TYPES,
  EXTRAS_DATE_PATTERN,
  EXTRAS_MAX_INTEGER,
  EXTRAS_MIN_INTEGER,
  type ExtraType,
  type ExtraValidation,
  type FileJson,
  type GroupJson,
  type GroupRoleJson,
  HEADER,
  IDENTIFIER_MAX_LENGTH,
  IDENTITY_TYPES,
  type IdentityJson,
  type InfoJson,
  type LicenseJson,
  type Links,
  MAX_CONTENT_LENGTH,
  MAX_PER_PAGE,
  type PageJson,
  type PaginationJson,
  type RecordJson,
  type RecordLinkJson,
  RESOURCE_BASE,
  RESOURCE_ROLES,
  type ResourceChanges,
  type ResourceJson,
  type ResourceType,
  type RevisionJson,
  type RoleInfoJson,
  type RolesJson,
  type TagJson,
  TEMPLATE_TYPES,
  type TemplateJson,
  type TemplateType,
  type TrashableType,
  type TrashItemJson,
  UPLOAD_CHUNK_SIZE,
  UPLOAD_CHUNKED_BOUNDARY,
  type UploadJson,
  type UploadTaskJson,
  type UserJson,
  type UserRoleJson,
} from "./protocol.ts";
export {
  attemptLimit,
  DEFAULT_RETRY,
  isRetriable,
  type ResolvedRetryOptions,
  RETRIABLE_STATUS,
  type RetryOptions,
  UNREACHABLE_ATTEMPTS,
} from "./retry.ts";
export {
  DEFAULT_TIMEOUT,
  type JsonKeyType,
  type JsonObjectOptions,
  MAX_JSON_BYTES,
  type RequestBody,
  type RequestOptions,
  Transport,
  type TransportOptions,
  type TransportSettings,
} from "./transport.ts";
export {
  apiBaseUrl,
  appendQuery,
  endpointUrl,
  pathSegment,
  type QueryObject,
  type QueryParams,
  type QueryValue,
} from "./url.ts";
export { USER_AGENT, VERSION } from "./version.ts";
