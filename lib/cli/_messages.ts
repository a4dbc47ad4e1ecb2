// Turns library and OS wording into CLI terms: field errors of the server, next steps for 401 and
// 403, flags instead of option names, and no internal temporary file names.

import { type RepoApyError, RequestError } from "../http/errors.ts";
import { ResourceNotFoundError } from "../resources/errors.ts";

/** What the CLI knows about the run when it reports an error. */
export interface MessageContext {
  /** The config instance in use, when one was resolved. */
  instance?: string | undefined;
}

/** Library phrases and what the CLI says instead. */
const REWRITES: [RegExp, (...groups: string[]) => string][] = [
  [/\bnothing is not a metadata type; use one of/, () => "the type is missing: give one of"],
  [/,? ?or pass host and pat directly/, () => ", or set REPO_APY_HOST and REPO_APY_PAT"],
  [
    /\bextras((?:\[\d+\]|\.[A-Za-z_]+)+)/g,
    (path) => `metadata entry ${metadataPath(path)}`,
  ],
  // `.<name>.<8 hex>.part` is the temporary file of a download: show the target instead.
  [/(^|[/\\'" ])\.([^/\\'"]+?)\.[0-9a-f]{8}\.part\b/g, (before, name) => `${before}${name}`],
];

function metadataPath(path: string): string {
  const parts = [...path.matchAll(/\[(\d+)\]|\.([A-Za-z_]+)/g)].map((match) =>
    match[1] === undefined ? (match[2] ?? "") : String(Number(match[1]) + 1)
  );
  const [first = "", ...rest] = parts;
  return rest.length === 0 ? first : `${first}, ${rest.join(" ")}`;
}

/**
 * Rewrites library wording in `message` into CLI terms.
 *
 * @param message A message from the library or the OS.
 * @returns The message as the CLI prints it.
 */
export function inCliTerms(message: string): string {
  let result = message;
  for (const [pattern, replace] of REWRITES) {
    result = result.replace(
      pattern,
      (_match, ...groups: unknown[]) =>
        replace(...groups.filter((group): group is string => typeof group === "string")),
    );
  }
  return result;
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
  const [first = "", ...rest] = path;
  if (first === "extras" && rest.length > 0) {
    return inCliTerms(
      `extras${rest.map((part) => /^\d+$/.test(part) ? `[${part}]` : `.${part}`).join("")}`,
    );
  }
  return oneLine(path.join("."));
}

function oneLine(text: string): string {
  // Control characters from the server must not reach the terminal.
  // deno-lint-ignore no-control-regex
  const line = text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
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
 * The one `Error: …` line for a library error, in CLI terms, with the server's field errors.
 *
 * @param error The error.
 * @returns The line without the `Error: ` prefix.
 */
export function errorLine(error: RepoApyError): string {
  if (error instanceof ResourceNotFoundError) {
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
  return inCliTerms(error.message.trim().split("\n")[0] ?? "");
}

/**
 * The next step for an error, if the CLI knows one.
 *
 * @param error The error.
 * @param context The instance in use.
 * @returns The hint, without the `Hint: ` prefix.
 */
export function nextStep(error: RepoApyError, context: MessageContext): string | undefined {
  if (!(error instanceof RequestError)) return undefined;
  const where = context.instance === undefined ? "" : ` of the instance '${context.instance}'`;
  const scopes = scopesOf(error.body);
  if ((error.status === 401 || error.status === 403) && scopes.length > 0) {
    return `the access token${where} lacks the scope${scopes.length === 1 ? "" : "s"} ` +
      `${scopes.map((scope) => `'${scope}'`).join(", ")}: create a token with ${
        scopes.length === 1 ? "it" : "them"
      } in the repository's web interface and store it with '${setPat(context)}' ` +
      `(or set REPO_APY_PAT)`;
  }
  if (error.status === 401) {
    return `the access token${where} was not accepted: store a valid one with ` +
      `'${setPat(context)}' (or set REPO_APY_PAT)`;
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
 * not one.
 *
 * @param error Any error.
 * @returns The line without the `Error: ` prefix.
 */
export function osErrorLine(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 10; depth++) {
    for (const [type, say] of OS_ERRORS) {
      if (current instanceof type) {
        const match = [...current.message.matchAll(/'([^']+)'|"([^"]+)"/g)].at(-1);
        const quoted = match?.[1] ?? match?.[2];
        return say(
          quoted === undefined ? "the given path" : `'${inCliTerms(quoted)}'`,
          current.message,
        );
      }
    }
    current = current.cause;
  }
  return undefined;
}
