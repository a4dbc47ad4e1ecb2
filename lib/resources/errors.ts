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
