/**
 * Starts the local repository server standalone, e.g. for a demo:
 * `deno task serve --port 8765 --pat pat_demo --user alice:pat_alice`. Prints the host and every
 * user's token and runs until SIGINT/SIGTERM. `--help` prints the usage.
 *
 * @example Usage (a shell command: the server runs until interrupted)
 * ```sh
 * deno run --allow-net --allow-read --allow-write lib/testing/serve.ts --port 8765 --pat pat_demo
 * ```
 *
 * @module
 */
import { IDENTITY_TYPES } from "../http/protocol.ts";
import type { IdentityType } from "./_state.ts";
import { type ServerUserInit, startServer, type TestServer } from "./server.ts";

/** Usage text of `deno task serve`. */
export const SERVE_USAGE: string = `Usage: deno task serve [options]

Starts the local repository server and prints its host and the users' tokens.

Options:
  --port <n>          port to listen on (default 8765; 0 picks a free port)
  --hostname <addr>   address to listen on (default 127.0.0.1)
  --pat <token>       token of the default user "testuser" (default: random pat_...)
  --user <spec>       one more user, repeatable; <spec> is
                      username:token[:identity type[:display name]]
                      e.g. --user alice:pat_alice or --user bob:pat_bob:ldap:Bob Builder
                      (identity type: local (default), ldap, oidc or shib)
  --quota <bytes>     per-user upload quota (default unlimited)
  --cert <pem file>   serve HTTPS with this certificate chain (needs --key)
  --key <pem file>    private key of --cert
  -h, --help          print this help
`;

/** Options of `deno task serve`, parsed. */
export interface ServeArgs {
  /** `--help` was given. */
  help: boolean;
  /** Single-valued options by name. */
  options: Record<string, string>;
  /** The `--user` specs, in order. */
  users: ServerUserInit[];
}

const SINGLE = new Set(["port", "hostname", "pat", "quota", "cert", "key"]);

/**
 * Parses a `--user` spec `username:token[:identity type[:display name]]` ({@linkcode parseServeArgs}
 * shows it).
 *
 * @throws {TypeError} When the spec is malformed.
 */
export function parseUserSpec(spec: string): ServerUserInit {
  const [username = "", pat = "", type, ...rest] = spec.split(":");
  if (username === "" || pat === "") {
    throw new TypeError(`Cannot read --user "${spec}": use username:token[:type[:display name]]`);
  }
  if (type !== undefined && type !== "" && !(IDENTITY_TYPES as readonly string[]).includes(type)) {
    throw new TypeError(
      `Cannot read --user "${spec}": identity type must be local, ldap, oidc or shib`,
    );
  }
  const user: ServerUserInit = { username, pat };
  if (type !== undefined && type !== "") user.identityType = type as IdentityType;
  if (rest.length > 0) user.displayname = rest.join(":");
  return user;
}

/**
 * Parses the command-line arguments of `deno task serve` (`--name value` or `--name=value`).
 *
 * @returns Help flag, option values by name and the users.
 * @throws {TypeError} On an unknown option, a missing value or a malformed `--user`.
 *
 * @example Usage
 * ```ts
 * import { parseServeArgs } from "./serve.ts";
 * const parsed = parseServeArgs(["--port", "8765", "--pat=pat_demo", "--user", "bob:pat_b:ldap:Bob B"]);
 * console.log(parsed.options); // { port: "8765", pat: "pat_demo" }
 * console.log(parsed.users); // [{ username: "bob", pat: "pat_b", identityType: "ldap", displayname: "Bob B" }]
 * ```
 */
export function parseServeArgs(args: readonly string[]): ServeArgs {
  const out: ServeArgs = { help: false, options: {}, users: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--help" || arg === "-h") {
      out.help = true;
      continue;
    }
    if (!arg.startsWith("--")) {
      throw new TypeError(`Unexpected argument "${arg}"; use --name value`);
    }
    const eq = arg.indexOf("=");
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    if (name !== "user" && !SINGLE.has(name)) throw new TypeError(`Unknown option --${name}`);
    const value = eq < 0 ? args[++i] : arg.slice(eq + 1);
    if (value === undefined) throw new TypeError(`Option --${name} needs a value`);
    if (name === "user") out.users.push(parseUserSpec(value));
    else out.options[name] = value;
  }
  return out;
}

/**
 * Starts the server from command-line arguments ({@linkcode parseServeArgs}, {@linkcode startServer}).
 *
 * @param args Command-line arguments (without `--help`).
 */
export async function serve(args: readonly string[]): Promise<TestServer> {
  const { options: opts, users } = parseServeArgs(args);
  const tls = opts.cert !== undefined && opts.key !== undefined
    ? { cert: await Deno.readTextFile(opts.cert), key: await Deno.readTextFile(opts.key) }
    : undefined;
  return await startServer({
    port: Number(opts.port ?? 8765),
    hostname: opts.hostname ?? "127.0.0.1",
    ...(opts.pat !== undefined ? { pat: opts.pat } : {}),
    ...(opts.quota !== undefined ? { quota: Number(opts.quota) } : {}),
    ...(tls !== undefined ? { tls } : {}),
    users,
  });
}

async function main(args: readonly string[]): Promise<number> {
  const out = new TextEncoder();
  let parsed: ServeArgs;
  try {
    parsed = parseServeArgs(args);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await Deno.stderr.write(out.encode(`serve: ${message}\n\n${SERVE_USAGE}`));
    return 2;
  }
  if (parsed.help) {
    await Deno.stdout.write(out.encode(SERVE_USAGE));
    return 0;
  }
  let server: TestServer;
  try {
    server = await serve(args);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await Deno.stderr.write(out.encode(`serve: ${message}\n`));
    return 1;
  }
  const lines = [`host: ${server.url}`, `pat: ${server.pat}`];
  for (const user of server.users.slice(1)) {
    lines.push(`user: ${user.username} (id ${user.id}, ${user.identityType}) pat: ${user.pat}`);
  }
  await Deno.stdout.write(out.encode(`${lines.join("\n")}\n`));
  const stop = async () => {
    await server.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  return -1;
}

if (import.meta.main) {
  const code = await main(Deno.args);
  if (code >= 0) Deno.exit(code);
}
