/**
 * The library's entry point, {@linkcode RepoManager}.
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "./mod.ts";
 * const manager = new RepoManager({ host: "https://repo.example", pat: "pat_x" });
 * await manager.close();
 * ```
 *
 * @module
 */

export * from "./repo_manager.ts";
