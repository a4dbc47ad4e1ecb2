/**
 * The library's entry point, {@linkcode RepoManager}.
 *
 * @module
 */

export * from "./repo_manager.ts";
