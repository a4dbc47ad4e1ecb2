/**
 * Errors of resource lookups that callers (the CLI among them) tell apart by class, never by
 * message text.
 *
 * @example Usage
 * ```ts
 * import { ResourceNotFoundError } from "./errors.ts";
 * const error = new ResourceNotFoundError("collection", "nope");
 * console.log(error.type, error.identifier); // "collection" "nope"
 * ```
 *
 * @module
 */

import { InputError } from "../http/errors.ts";

/**
 * No resource of that type has the identifier (and none was to be created).
 *
 * @example Usage
 * ```ts
 * import { ResourceNotFoundError } from "./errors.ts";
 * console.log(new ResourceNotFoundError("record", "x") instanceof Error); // true
 * ```
 */
export class ResourceNotFoundError extends InputError {
  /** Resource type. */
  readonly type: string;
  /** The identifier looked up (normalized). */
  readonly identifier: string;

  /**
   * Creates the error.
   *
   * @param type Resource type.
   * @param identifier The identifier looked up.
   */
  constructor(type: string, identifier: string) {
    super(
      `The ${type} with identifier '${identifier}' is not present: create it first (create: true)`,
    );
    this.type = type;
    this.identifier = identifier;
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
