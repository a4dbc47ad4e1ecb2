// Test options for what not every CI system has: POSIX tools and the third-party corpus.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * `Deno.test(name, POSIX_TOOLS, fn)`: the test runs bash, openssl or curl, which Windows runners
 * do not provide the same way.
 */
export const POSIX_TOOLS: { ignore: boolean } = { ignore: Deno.build.os === "windows" };

/** The third-party corpus next to the project (`../shared/corpus`), absent in GitHub's CI. */
export const CORPUS_DIR: string = fileURLToPath(
  new URL("../../shared/corpus/", import.meta.url),
);

/**
 * `Deno.test(name, NEEDS_CORPUS, fn)`: the test reads the third-party corpus, skipped where the
 * folder does not exist (GitHub CI checks out only this repository).
 */
export const NEEDS_CORPUS: { ignore: boolean } = { ignore: !existsSync(CORPUS_DIR) };
