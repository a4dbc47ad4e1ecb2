// A temporary directory for a test, removed when disposed (`await using dir = await tempDir()`).

/** A temporary directory removed on dispose. */
export interface TempDir extends AsyncDisposable {
  path: string;
}

/** Creates a temporary directory (its real path: macOS's temporary directory is a link). */
export async function tempDir(): Promise<TempDir> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "repo-apy-test-" }));
  return {
    path,
    async [Symbol.asyncDispose]() {
      await Deno.remove(path, { recursive: true });
    },
  };
}
