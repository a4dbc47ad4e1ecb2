/**
 * A bounded concurrency pool: runs a task for each item of a (lazy) iterable, at most `limit` at
 * a time. Items are pulled only when a slot is free, so a lazy source (file chunks read on
 * demand) keeps memory bounded. After the first failure no new task starts; running ones finish,
 * then the first error is thrown.
 *
 * @module
 */

/** Options of {@linkcode runPool}. */
export interface PoolOptions {
  /** Stops starting new tasks; the pool then throws the abort reason. */
  signal?: AbortSignal | undefined;
}

/**
 * Runs `task` for every item with at most `limit` tasks at once.
 *
 * @typeParam T Item type.
 * @param limit Tasks in flight at most (≥ 1).
 * @param items The items, pulled lazily.
 * @throws The first task's (or the source's) error, after running tasks settled.
 */
export async function runPool<T>(
  limit: number,
  items: AsyncIterable<T> | Iterable<T>,
  task: (item: T) => Promise<void>,
  options: PoolOptions = {},
): Promise<void> {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`Cannot run the pool: limit must be a positive integer, got ${limit}`);
  }
  const iterator = Symbol.asyncIterator in items
    ? items[Symbol.asyncIterator]()
    : (items as Iterable<T>)[Symbol.iterator]();
  let failure: { error: unknown } | undefined;
  let pulling = Promise.resolve();
  const stop = () => failure !== undefined || options.signal?.aborted === true;

  // Pulls are serialized so a source that is not an async generator is never re-entered.
  const next = (): Promise<IteratorResult<T>> => {
    const result = pulling.then(() => iterator.next());
    pulling = result.then(() => undefined, () => undefined);
    return result;
  };

  const worker = async () => {
    while (!stop()) {
      let step: IteratorResult<T>;
      try {
        step = await next();
      } catch (error) {
        failure ??= { error };
        return;
      }
      if (step.done || stop()) return;
      try {
        await task(step.value);
      } catch (error) {
        failure ??= { error };
      }
    }
  };

  await Promise.all(Array.from({ length: limit }, worker));
  if (failure !== undefined || options.signal?.aborted) {
    await pulling;
    await iterator.return?.();
    if (failure !== undefined) throw failure.error;
    throw options.signal?.reason;
  }
}
