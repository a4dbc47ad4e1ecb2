/**
 * Reading the config file from disk.
 *
 * @module
 */

import { ConfigurationError } from "../errors.ts";
import { ConfigFileError, type DirectSetting } from "./errors.ts";
import { kadiconfigPath } from "./kadiconfig.ts";
import { parseConfig } from "./parse.ts";
import type { RepoConfig } from "./types.ts";

/** Options of {@linkcode readConfig}. */
export interface ReadConfigOptions {
  /** Called with a warning, for example when other users may read the file. Default: ignore. */
  warn?: ((message: string) => void) | undefined;
  /**
   * Whose conventions apply: Windows has no POSIX modes, so no mode warning is given there.
   * @default {Deno.build.os}
   */
  os?: typeof Deno.build.os | undefined;
  /**
   * Settings the caller still lacks, named in a {@linkcode ConfigFileError} (`missing`) when the
   * file cannot be read. @default {["host", "pat"]}
   */
  missing?: readonly DirectSetting[] | undefined;
}

/**
 * Reads and parses the config file. On POSIX systems, a file that group or others may read or
 * write gives a warning through `options.warn` (not an error); on Windows, which has no such
 * modes, there is no check. Windows line endings (`\r\n`) are accepted.
 *
 * Permissions: `--allow-read=<path>`.
 *
 * @example Usage
 * ```ts
 * import { readConfig } from "./read.ts";
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/.repoconfig`;
 * await Deno.writeTextFile(path, '[global]\ndefault = "main"\n[main]\nhost = "https://repo.example"\npat = "pat_x"\n', { mode: 0o600 });
 * const config = await readConfig(path, { warn: (message) => console.warn(message) });
 * console.log(config.instances.get("main")?.host); // "https://repo.example"
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @param path Path of the config file.
 * @param options A `warn` callback.
 * @returns The parsed config.
 * @throws {ConfigFileError} When the file is missing or may not be read (`problem`, `path`).
 * @throws {ConfigurationError} When the file is malformed or cannot be read otherwise.
 */
export async function readConfig(
  path: string,
  options: ReadConfigOptions = {},
): Promise<RepoConfig> {
  let text: string;
  try {
    text = await readSmallFile(path);
  } catch (error) {
    throw error instanceof ConfigurationError ? error : readError(path, error, options.missing);
  }
  if ((options.os ?? Deno.build.os) !== "windows" && options.warn !== undefined) {
    const mode = await Deno.stat(path).then((info) => info.mode, () => null);
    if (mode !== null && (mode & 0o077) !== 0) {
      options.warn(
        `The config file ${path} can be read or written by other users (mode ${
          (mode & 0o777).toString(8).padStart(3, "0")
        }): run 'chmod 600 ${path}' to keep your access token private`,
      );
    }
  }
  return parseConfig(text, path);
}

/** The largest config file read, in bytes: a real one is a few hundred bytes. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * Reads the file only if it is a regular file (not a FIFO, which would block, nor a device such
 * as /dev/zero, which never ends) of at most {@linkcode MAX_CONFIG_BYTES}, counted again while
 * reading in case it grows.
 */
async function readSmallFile(path: string): Promise<string> {
  const info = await Deno.stat(path);
  if (info.isDirectory) throw new Deno.errors.IsADirectory(path);
  if (!info.isFile) {
    throw new ConfigurationError(
      `The config path ${path} is not a regular file (${kindOf(info)}): point REPO_APY_CONFIG ` +
        `at a file, or unset it to use ~/.repoconfig`,
    );
  }
  const tooLarge = () =>
    new ConfigurationError(
      `The config file ${path} is larger than ${MAX_CONFIG_BYTES} bytes, far more than any ` +
        `config: check that REPO_APY_CONFIG names the right file`,
    );
  if (info.size > MAX_CONFIG_BYTES) throw tooLarge();
  using file = await Deno.open(path, { read: true });
  // Read on to one byte past the limit: the file may have grown since stat().
  const buffer = new Uint8Array(MAX_CONFIG_BYTES + 1);
  let length = 0;
  while (length < buffer.length) {
    const count = await file.read(buffer.subarray(length));
    if (count === null) break;
    length += count;
  }
  if (length > MAX_CONFIG_BYTES) throw tooLarge();
  return new TextDecoder().decode(buffer.subarray(0, length));
}

function kindOf(info: Deno.FileInfo): string {
  if (info.isFifo) return "a named pipe";
  if (info.isCharDevice || info.isBlockDevice) return "a device";
  if (info.isSocket) return "a socket";
  return "not a file";
}

/** The Python client's `~/.kadiconfig` when it exists (and may be looked at), else undefined. */
function foundKadiconfig(): string | undefined {
  try {
    const path = kadiconfigPath();
    return Deno.statSync(path).isFile ? path : undefined;
  } catch {
    return undefined;
  }
}

function readError(
  path: string,
  error: unknown,
  missing: readonly DirectSetting[] | undefined,
): ConfigurationError {
  const options = { cause: error };
  const fileError = (
    message: string,
    problem: ConfigFileError["problem"],
    kadiconfig?: string,
  ) => new ConfigFileError(message, { problem, path, missing, kadiconfig, cause: error });
  if (error instanceof Deno.errors.NotFound) {
    const kadiconfig = foundKadiconfig();
    if (kadiconfig !== undefined) {
      return fileError(
        `No config file at ${path}, but the Python client's ${kadiconfig} exists: run ` +
          `'repo-apy config import-kadiconfig' to convert it, or pass host and pat directly`,
        "notFound",
        kadiconfig,
      );
    }
    return fileError(
      `No config file at ${path}: run 'repo-apy config create' and then 'repo-apy config set-host' / ` +
        `'set-pat', or pass host and pat directly`,
      "notFound",
    );
  }
  if (error instanceof Deno.errors.NotCapable) {
    return fileError(
      `No permission to read the config file ${path}: run Deno with --allow-read=${path}, or pass ` +
        `host and pat directly`,
      "notPermitted",
    );
  }
  if (error instanceof Deno.errors.PermissionDenied) {
    return fileError(
      `The config file ${path} is not readable by you: run 'chmod 600 ${path}' as its owner, or pass ` +
        `host and pat directly`,
      "notReadable",
    );
  }
  if (error instanceof Deno.errors.IsADirectory) {
    return new ConfigurationError(
      `The config path ${path} is a directory: point REPO_APY_CONFIG at a file, or move the ` +
        `directory away and run 'repo-apy config create'`,
      options,
    );
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new ConfigurationError(
    `Cannot read the config file ${path} (${reason}): check the path`,
    options,
  );
}
