// Minimal assertions on top of node:assert (JSR's @std/assert is not reachable here).
import nodeAssert from "node:assert/strict";

export function assertEquals<T>(actual: T, expected: T, message?: string): void {
  nodeAssert.deepStrictEqual(actual, expected, message);
}

export function assertNotEquals<T>(actual: T, expected: T, message?: string): void {
  nodeAssert.notDeepStrictEqual(actual, expected, message);
}

export function assertTrue(value: unknown, message?: string): asserts value {
  nodeAssert.ok(value, message);
}

export function assertStringIncludes(actual: string, expected: string): void {
  nodeAssert.ok(
    actual.includes(expected),
    `expected ${JSON.stringify(actual)} to include ${JSON.stringify(expected)}`,
  );
}

export function assertNotIncludes(actual: string, unexpected: string): void {
  nodeAssert.ok(
    !actual.includes(unexpected),
    `expected output not to include ${JSON.stringify(unexpected)}`,
  );
}

export function assertMatch(actual: string, pattern: RegExp): void {
  nodeAssert.match(actual, pattern);
}

type ErrorClass<E extends Error> = new (...args: never[]) => E;

export async function assertRejects<E extends Error>(
  fn: () => Promise<unknown>,
  errorClass: ErrorClass<E>,
): Promise<E> {
  try {
    await fn();
  } catch (error) {
    nodeAssert.ok(error instanceof errorClass, `expected ${errorClass.name}, got ${String(error)}`);
    return error;
  }
  throw new nodeAssert.AssertionError({ message: `expected a rejection with ${errorClass.name}` });
}

export function assertThrows<E extends Error>(fn: () => unknown, errorClass: ErrorClass<E>): E {
  try {
    fn();
  } catch (error) {
    nodeAssert.ok(error instanceof errorClass, `expected ${errorClass.name}, got ${String(error)}`);
    return error;
  }
  throw new nodeAssert.AssertionError({ message: `expected a throw of ${errorClass.name}` });
}

export function assert(value: unknown, message?: string): asserts value {
  assertTrue(value, message);
}
