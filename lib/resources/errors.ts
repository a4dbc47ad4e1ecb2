/**
 * Errors of resource lookups that callers (the CLI among them) tell apart by class, never by
 * message text.
 *
 * @module
 */

import { InputError } from "../errors.ts";
import { RequestError } from "../http/errors.ts";

/**
 * No resource of that type has the id or identifier (and none was to be created): one class for
 * both lookups, `record({ id })` and `record({ identifier })`. It is a {@linkcode RequestError}
 * (status 404, or the server's status when it answered otherwise for a missing resource), so
 * `catch` code written for either spelling sees every "not found".
 *
 * @example Usage
 * ```ts
 * import { ResourceNotFoundError } from "./errors.ts";
 * import { RequestError } from "../http/errors.ts";
 * const error = new ResourceNotFoundError("record", "x");
 * console.log(error instanceof RequestError, error.status); // true 404
 * console.log(new ResourceNotFoundError("record", { id: 7 }).id); // 7
 * ```
 */
export class ResourceNotFoundError extends RequestError {
  /** Resource type. */
  readonly type: string;
  /** The identifier looked up (normalized); `undefined` for a lookup by id. */
  readonly identifier: string | undefined;
  /** The id looked up; `undefined` for a lookup by identifier. */
  readonly id: number | undefined;

  /**
   * Creates the error.
   *
   * @param type Resource type.
   * @param lookup The identifier looked up, or `{ id }`.
   * @param answer The server's answer to the lookup, when there was one.
   */
  constructor(type: string, lookup: string | { id: number }, answer?: RequestError) {
    const byId = typeof lookup === "object";
    super({
      status: answer?.status ?? 404,
      method: answer?.method ?? "GET",
      url: answer?.url ?? "",
      body: answer?.body,
      ...(answer === undefined ? {} : { headers: answer.headers, cause: answer }),
      message: byId
        ? `Could not access the ${type} with id ${lookup.id}: ${
          answer?.message ?? "[404] not found"
        }`
        : `The ${type} with identifier '${lookup}' is not present: create it first (create: true)`,
    });
    this.type = type;
    this.identifier = byId ? undefined : lookup;
    this.id = byId ? lookup.id : undefined;
  }
}

/**
 * A search would return more results than allowed (`limit` of `searchResourceIds`).
 *
 * @example Usage
 * ```ts
 * import { TooManyResultsError } from "./errors.ts";
 * console.log(new TooManyResultsError(1500, 1000).total); // 1500
 * ```
 */
export class TooManyResultsError extends InputError {
  /** How many resources matched. */
  readonly total: number;
  /** The limit that was exceeded. */
  readonly limit: number;

  /**
   * Creates the error.
   *
   * @param total How many resources matched.
   * @param limit The limit.
   */
  constructor(total: number, limit: number) {
    super(
      `Found ${total} results, more than the limit of ${limit}: narrow the search or raise the limit`,
    );
    this.total = total;
    this.limit = limit;
  }
}

/** Where an invalid metadata entry sits, and what is wrong with it. */
export interface MetadataErrorInit {
  /**
   * Position of the offending entry or field: the array's name (`extras`), then indices (from
   * 0) and field names, for example `["extras", 0, "value", 1, "type"]`.
   */
  path: readonly (string | number)[];
  /**
   * The entry's key path (nested keys; list items by their 1-based position), for example
   * `["a", "2"]`, when the entry has a key.
   */
  keyPath?: readonly string[] | undefined;
  /** What is wrong, for example `a non-empty string key is required`. */
  reason: string;
  /** The list of allowed types, when the entry's type is the problem. */
  allowedTypes?: readonly string[] | undefined;
  /** The type that was given (`undefined` when none was), when the type is the problem. */
  givenType?: unknown;
}

/**
 * Metadata ("extras") that cannot be sent or converted: one entry is invalid. The fields say
 * which entry, which field, and (for a wrong type) the allowed types, so a caller can word its
 * own message.
 *
 * @example Usage
 * ```ts
 * import { MetadataError, validateExtras } from "@repo/apy";
 * import assert from "node:assert";
 *
 * assert.throws(() => validateExtras([{ key: "n", value: 1 }]), (error) => {
 *   assert.ok(error instanceof MetadataError);
 *   assert.deepStrictEqual(error.path, ["extras", 0, "type"]);
 *   assert.deepStrictEqual(error.keyPath, ["n"]);
 *   assert.strictEqual(error.givenType, undefined);
 *   assert.ok(error.allowedTypes?.includes("int"));
 *   return true;
 * });
 * ```
 */
export class MetadataError extends InputError {
  /** Position of the offending entry or field (see {@linkcode MetadataErrorInit.path}). */
  readonly path: readonly (string | number)[];
  /** The entry's key path, when it has a key. */
  readonly keyPath: readonly string[] | undefined;
  /** What is wrong with the entry or field. */
  readonly reason: string;
  /** The allowed types, when the type is the problem; otherwise `undefined`. */
  readonly allowedTypes: readonly string[] | undefined;
  /** The type given, when the type is the problem (`undefined` also when none was given). */
  readonly givenType: unknown;

  /**
   * Creates the error.
   *
   * @param message The whole message.
   * @param init Where the entry sits and what is wrong.
   */
  constructor(message: string, init: MetadataErrorInit) {
    super(message);
    this.path = [...init.path];
    this.keyPath = init.keyPath === undefined ? undefined : [...init.keyPath];
    this.reason = init.reason;
    this.allowedTypes = init.allowedTypes === undefined ? undefined : [...init.allowedTypes];
    this.givenType = init.givenType;
  }
}
