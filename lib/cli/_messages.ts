// Library errors and OS errors in CLI terms: field errors of the server, next steps for 401 and
// 403, environment variables instead of option names, and no internal temporary file names.
// Every sentence is built from an error's class and fields, never from the library's wording.

import type { RepoApyError } from "../errors.ts";
import { ConnectionError, RequestError, TimeoutError } from "../http/errors.ts";
import type { SettingSource } from "../config/settings.ts";
import { ConfigFileError } from "../config/errors.ts";
import { CONFIG_PATH_ENV, SETTINGS_ENV } from "../config/path.ts";
import { MetadataError, ResourceNotFoundError } from "../resources/errors.ts";
import { LocalFileError, UploadFilesError } from "../transfer/errors.ts";
import { partFileTarget } from "../utils/part_file.ts";
import { terminalLine } from "./_terminal_text.ts";

/** What the CLI knows about the run when it reports an error. */
export interface MessageContext {
  /** The config instance in use, when one was resolved. */
  instance?: string | undefined;
  /** Where the host and the token came from: the message names the place to fix. */
  sources?: { host: SettingSource; pat: SettingSource } | undefined;
}

/**
 * A metadata path (`["extras", 0, "value", 1, "type"]`, or the server's `["extras", "0", …]`) in
 * CLI terms: `metadata entry 1, value 2 type` (entries counted from 1).
 */
export function metadataEntry(path: readonly (string | number)[]): string {
  const parts = path.slice(1).map((part) =>
    typeof part === "number" || /^\d+$/.test(part) ? String(Number(part) + 1) : oneLine(part)
  );
  const [first = "", ...rest] = parts;
  return `metadata entry ${rest.length === 0 ? first : `${first}, ${rest.join(" ")}`}`.trim();
}

/** The CLI's sentence for invalid metadata: the entry, then what is wrong with it. */
function metadataLine(error: MetadataError): string {
  const subject = error.keyPath === undefined
    ? "Invalid metadatum"
    : `Invalid metadatum '${oneLine(error.keyPath.join("."))}'`;
  const allowed = error.allowedTypes?.join(", ");
  const reason = allowed === undefined
    ? error.reason
    : error.givenType === undefined
    ? `the type is missing: give one of ${allowed}`
    : `${describeValue(error.givenType)} is not a metadata type: give one of ${allowed}`;
  return `${subject} (${metadataEntry(error.path)}): ${reason}`;
}

function describeValue(value: unknown): string {
  return typeof value === "string" ? `'${oneLine(value)}'` : oneLine(JSON.stringify(value) ?? "");
}

/** The CLI's sentence for a config file it cannot use, from the error's fields. */
function configFileLine(error: ConfigFileError): string {
  const path = error.path ?? "";
  const problem = {
    notFound: error.kadiconfig === undefined
      ? `No config file at ${path}: run 'repo-apy config create' and then ` +
        `'repo-apy config set-host' / 'set-pat'`
      : `No config file at ${path}, but the Python client's ${error.kadiconfig} exists: run ` +
        `'repo-apy config import-kadiconfig' to convert it`,
    notPermitted: `No permission to read the config file ${path}: run Deno with ` +
      `--allow-read=${path}`,
    notReadable: `The config file ${path} is not readable by you: run 'chmod 600 ${path}' as its ` +
      `owner`,
    noHome: `Cannot find the home directory: set ${
      error.homeVariable ?? "HOME"
    } or ${CONFIG_PATH_ENV} to locate the config file`,
  }[error.problem];
  // Without a config file, the CLI takes the missing settings from its environment variables.
  const variables = error.missing.map((setting) => SETTINGS_ENV[setting]);
  return variables.length === 0 ? problem : `${problem}, or set ${variables.join(" and ")}`;
}

/** Flattens the server's `errors` field (`{license: ["No license …"]}`) into `field: reason` texts. */
export function fieldErrors(body: unknown): string[] {
  if (body === null || typeof body !== "object" || !("errors" in body)) return [];
  const found: string[] = [];
  const walk = (value: unknown, path: string[], depth: number) => {
    if (depth > 8 || found.length >= 20) return;
    if (typeof value === "string") {
      found.push(`${path.length === 0 ? "" : `${fieldName(path)}: `}${oneLine(value)}`);
    } else if (Array.isArray(value)) {
      for (const item of value) walk(item, path, depth + 1);
    } else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) walk(item, [...path, key], depth + 1);
    }
  };
  walk((body as { errors: unknown }).errors, [], 0);
  return found;
}

function fieldName(path: string[]): string {
  return path[0] === "extras" && path.length > 1 ? metadataEntry(path) : oneLine(path.join("."));
}

/** Server text inside a sentence: control runs as one space, at most 300 characters. */
function oneLine(text: string): string {
  return terminalLine(text, { fold: true, maxLength: 300 });
}

/** The `scopes` key of an error body: the scopes the endpoint needs. */
function scopesOf(body: unknown): string[] {
  if (body === null || typeof body !== "object" || !("scopes" in body)) return [];
  const { scopes } = body as { scopes: unknown };
  return Array.isArray(scopes)
    ? scopes.filter((scope): scope is string => typeof scope === "string").map(oneLine).slice(0, 20)
    : [];
}

function setPat(context: MessageContext): string {
  return `repo-apy config set-pat${
    context.instance === undefined ? "" : ` -I ${context.instance}`
  }`;
}

/**
 * Where the token in use is set, and how to replace it, for a rejected token. The CLI has no
 * option for it: one given directly comes from a program embedding the CLI, which keeps the
 * config file's wording.
 */
function tokenFix(
  context: MessageContext,
): { where: string; store: (what: string) => string } {
  if (context.sources?.pat === "environment") {
    return {
      where: " in REPO_APY_PAT",
      store: (what) => `set ${what} in REPO_APY_PAT, or unset it to use the config file's token`,
    };
  }
  return {
    where: context.instance === undefined ? "" : ` of the instance '${context.instance}'`,
    store: (what) => `store ${what} with '${setPat(context)}' (or set REPO_APY_PAT)`,
  };
}

/** Where the host in use is set, for a host that cannot be reached. */
function hostWhere(context: MessageContext, host: string): string {
  switch (context.sources?.host) {
    case "environment":
      return `REPO_APY_HOST (${host})`;
    default:
      return context.instance === undefined
        ? "'host' in the config file"
        : `'host' of the instance '${context.instance}' in the config file ` +
          `(repo-apy config set-host -I ${context.instance})`;
  }
}

/**
 * The one `Error: …` line for a library error, in CLI terms, with the server's field errors.
 *
 * @returns The line without the `Error: ` prefix.
 */
export function errorLine(error: RepoApyError, context: MessageContext = {}): string {
  if (error instanceof MetadataError) return metadataLine(error);
  if (error instanceof ConnectionError && error.unreachable && !(error instanceof TimeoutError)) {
    // Refused or unknown: the host is wrong or down; say where it was set.
    const reason = error.cause instanceof Error ? ` (${oneLine(error.cause.message)})` : "";
    return `Could not connect to ${oneLine(error.host)}${reason}: check ${
      hostWhere(context, oneLine(error.host))
    } and your network`;
  }
  if (error instanceof ConfigFileError) return configFileLine(error);
  if (error instanceof ResourceNotFoundError && error.identifier !== undefined) {
    // Decided by the error's class and fields, never by the library's wording.
    const { type, identifier } = error;
    return `No ${type} with identifier '${identifier}' exists: check the identifier, or create it ` +
      `with 'repo-apy ${type}s create -i ${identifier}'`;
  }
  if (error instanceof RequestError) {
    const fields = fieldErrors(error.body);
    if (fields.length > 0) {
      return `[${error.status}] The server rejected the input: ${fields.join("; ")}`;
    }
  }
  return error.message.trim().split("\n")[0] ?? "";
}

/**
 * The next step for an error, if the CLI knows one.
 *
 * @returns The hint, without the `Hint: ` prefix.
 */
export function nextStep(error: RepoApyError, context: MessageContext): string | undefined {
  if (!(error instanceof RequestError)) return undefined;
  const { where, store } = tokenFix(context);
  const scopes = scopesOf(error.body);
  if ((error.status === 401 || error.status === 403) && scopes.length > 0) {
    return `the access token${where} lacks the scope${scopes.length === 1 ? "" : "s"} ` +
      `${scopes.map((scope) => `'${scope}'`).join(", ")}: create a token with ${
        scopes.length === 1 ? "it" : "them"
      } in the repository's web interface and ${store("it")}`;
  }
  if (error.status === 401) {
    return `the access token${where} was not accepted: ${store("a valid one")}`;
  }
  if (error.status === 403) {
    return "your account lacks the permission for this: ask the resource's owner for a role " +
      "that allows it";
  }
  return undefined;
}

/** OS error classes and what they mean for a user. */
const OS_ERRORS: [new (...args: never[]) => Error, (path: string, message: string) => string][] = [
  [Deno.errors.NotFound, (path) => `No file or folder at ${path}: check the path`],
  [
    Deno.errors.NotADirectory,
    (path) => `A part of the path ${path} is a file, not a folder: choose another path`,
  ],
  [Deno.errors.IsADirectory, (path) => `${path} is a folder, not a file: give a file's path`],
  [
    Deno.errors.AlreadyExists,
    (path) => `${path} exists already: choose another path or remove it`,
  ],
  [
    Deno.errors.PermissionDenied,
    (path) => `No permission to access ${path}: check the permissions of the file and its folder`,
  ],
  [
    Deno.errors.NotCapable,
    (path, message) =>
      // Deno lets only --allow-all reach special files (/dev/…, /proc/…): no flag to suggest.
      /--allow-all/.test(message)
        ? `${path} is a special file that repo-apy does not read or write: give a regular file ` +
          "or folder"
        : `repo-apy was not allowed to access ${path}: run it with the Deno permission this ` +
          "needs (--allow-read, --allow-write or --allow-env)",
  ],
];

/**
 * The one line for an error of the OS (file system) in CLI terms, or `undefined` when `error` is
 * not one. The path is the one a library error names (a download's target, the file an upload
 * failed on); otherwise the one
 * quoted in the OS's message, with a temporary download file shown as its target.
 *
 * @returns The line without the `Error: ` prefix.
 */
export function osErrorLine(error: unknown): string | undefined {
  let known: string | undefined;
  for (let current = error, depth = 0; current instanceof Error && depth < 10; depth++) {
    if (current instanceof LocalFileError || current instanceof UploadFilesError) {
      known ??= current.path;
    }
    for (const [type, say] of OS_ERRORS) {
      if (current instanceof type) {
        const path = known ?? quotedPath(current.message);
        return say(path === undefined ? "the given path" : `'${oneLine(path)}'`, current.message);
      }
    }
    current = current.cause;
  }
  return undefined;
}

/** The last path Deno quotes in an OS error's message, as the target for a temporary file. */
function quotedPath(message: string): string | undefined {
  const match = [...message.matchAll(/'([^']+)'|"([^"]+)"/g)].at(-1);
  const quoted = match?.[1] ?? match?.[2];
  return quoted === undefined ? undefined : partFileTarget(quoted) ?? quoted;
}
