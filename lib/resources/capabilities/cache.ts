/**
 * Capability: the metadata cache of a resource or user — the last answer, fresh for five minutes.
 *
 * @module
 */

/** How long cached metadata is used before it is fetched again. */
export const META_TTL_MS = 5 * 60 * 1000;

/** A cached value with its age. */
export interface MetaCache<T> {
  /** The value while it is fresh, else `undefined`. */
  fresh(): T | undefined;
  /** The value whatever its age (for descriptions), else `undefined`. */
  peek(): T | undefined;
  /** Stores a new value and returns it. */
  set(value: T): T;
  /** Forgets the value. */
  clear(): void;
}

/**
 * Creates an empty cache.
 *
 * @typeParam T Value type.
 * @param ttlMs How long a value stays fresh.
 * @returns The cache.
 */
export function metaCache<T>(ttlMs: number = META_TTL_MS): MetaCache<T> {
  let value: T | undefined;
  let storedAt = 0;
  return {
    fresh: () => value !== undefined && Date.now() - storedAt < ttlMs ? value : undefined,
    peek: () => value,
    set: (next) => {
      value = next;
      storedAt = Date.now();
      return next;
    },
    clear: () => {
      value = undefined;
    },
  };
}
