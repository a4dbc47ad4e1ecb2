/**
 * {@linkcode startServer}: starts the local repository server in-process.
 *
 * @module
 */
import { createApp } from "./_app.ts";
import type { Fault } from "./_faults.ts";
import { listen } from "./_http.ts";
import type { RequestLogEntry } from "./_log.ts";
import { ALL_SCOPES, type IdentityType, randomToken, State } from "./_state.ts";
import { routes } from "./_routes.ts";

/** A further user account of the server, given to {@linkcode startServer} in `users`. */
export interface ServerUserInit {
  /** Username of the identity (local usernames: lower-case letters, digits, `-` and `_`). */
  username: string;
  /** Display name (default: the username). */
  displayname?: string;
  /** Identity provider of the account: `local` (default), `ldap`, `oidc` or `shib`. */
  identityType?: IdentityType;
  /** Full-scope token of the user (default: a random `pat_...`). */
  pat?: string;
  /**
   * An inactive account is listed by `GET /users` only with `inactive=true`, and its token answers
   * 401 "This account is currently inactive." (default false).
   */
  inactive?: boolean;
}

/** A user account of a running server and its full-scope token. */
export interface ServerUser {
  /** User ID (the default user is 1; users from `users` follow in order). */
  id: number;
  /** Username. */
  username: string;
  /** Display name. */
  displayname: string;
  /** Identity provider. */
  identityType: IdentityType;
  /** Full-scope token. */
  pat: string;
}

/** Options of {@linkcode startServer}. */
export interface ServerOptions {
  /** Port (default 0: any free port). */
  port?: number;
  /** Address to listen on (default `127.0.0.1`). */
  hostname?: string;
  /** Full-scope token of the default user (default: a random `pat_...`). */
  pat?: string;
  /** Serve HTTPS with this PEM certificate chain and key. */
  tls?: { cert: string; key: string };
  /** Faults active from the start. */
  faults?: Fault[];
  /** Per-user upload quota in bytes (default unlimited). */
  quota?: number;
  /**
   * Directory below which the server keeps file bytes (default: a new temporary directory); bodies
   * up to 1 MiB stay in memory (up to 256 MiB of them per server).
   */
  storageDir?: string;
  /**
   * More user accounts besides the default user `testuser` (ID 1), e.g. to try roles and group
   * members with a second user; each gets a full-scope token.
   */
  users?: ServerUserInit[];
}

/** A running local repository server. */
export interface TestServer extends AsyncDisposable {
  /** Origin, e.g. `http://127.0.0.1:41234` (`https` with TLS). */
  url: string;
  /** Full-scope token of the default user (ID 1). */
  pat: string;
  /** Every user account given at start, the default user first, each with its token. */
  users: ServerUser[];
  /** Every request, in order. */
  log: RequestLogEntry[];
  /** TCP connections the server accepted so far (kept-alive connections count once). */
  readonly connections: number;
  /** Adds a fault rule. */
  addFault(fault: Fault): void;
  /** Removes all fault rules. */
  clearFaults(): void;
  /** Adds a user (no token; see {@linkcode TestServer.createToken}). */
  createUser(
    init: { username: string; displayname?: string; identityType?: IdentityType },
  ): { id: number };
  /**
   * Adds a token and returns it (`pat_...`): for user 1 unless `userId` is given, with every
   * scope (like {@linkcode TestServer.pat}) unless `scopes` is given.
   */
  createToken(init: { userId?: number; scopes?: string[]; expired?: boolean }): string;
  /** Stops the server and removes its stored bytes. */
  close(): Promise<void>;
}

/** The default user and the further users of the options, each with its token; checked. */
function userAccounts(options: ServerOptions): (ServerUserInit & { pat: string })[] {
  const all = [
    { username: "testuser", displayname: "Test User", pat: options.pat ?? randomToken() },
    ...(options.users ?? []).map((u) => ({ ...u, pat: u.pat ?? randomToken() })),
  ];
  const names = new Set<string>();
  const tokens = new Set<string>();
  for (const user of all) {
    const name = `${user.identityType ?? "local"}/${user.username}`;
    if (names.has(name)) {
      throw new TypeError(`Cannot start the server: user "${user.username}" is given twice`);
    }
    if (tokens.has(user.pat)) {
      throw new TypeError(`Cannot start the server: user "${user.username}" reuses a token`);
    }
    names.add(name);
    tokens.add(user.pat);
  }
  return all;
}

/**
 * Starts the local repository server (an in-process emulation of the repository's HTTP API);
 * close it (or `await using`) when done.
 *
 * @example Usage, with a fault: the first answer is a 503
 * ```ts
 * import { startServer } from "@repo/apy/testing";
 *
 * await using server = await startServer({ faults: [{ path: "/info", status: 503, nth: 1 }] });
 * const headers = { Authorization: `Bearer ${server.pat}` };
 * const first = await fetch(`${server.url}/api/v1/info`, { headers });
 * await first.body?.cancel(); // 503 once
 * const second = await fetch(`${server.url}/api/v1/info`, { headers });
 * console.log(await second.json()); // { version: "1.13.0" }
 * ```
 *
 * @example A second user
 * ```ts
 * import { startServer } from "@repo/apy/testing";
 *
 * await using server = await startServer({ users: [{ username: "alice", pat: "pat_alice" }] });
 * const response = await fetch(`${server.url}/api/v1/users/me`, {
 *   headers: { Authorization: "Bearer pat_alice" },
 * });
 * console.log((await response.json()).identity.username); // "alice"
 * ```
 */
export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  const accounts = userAccounts(options);
  if (options.storageDir !== undefined) await Deno.mkdir(options.storageDir, { recursive: true });
  const storageDir = await Deno.makeTempDir({
    prefix: "repo-apy-server-",
    ...(options.storageDir !== undefined ? { dir: options.storageDir } : {}),
  });
  const state = new State(storageDir, options.quota ?? Infinity);
  const users: ServerUser[] = [];
  for (const init of accounts) {
    const user = state.addUser(init.username, init.displayname ?? init.username, init.identityType);
    if (init.inactive) user.state = "inactive";
    state.addToken(init.pat, user.id, ALL_SCOPES);
    const { id, username, displayname, identityType } = user;
    users.push({ id, username, displayname, identityType, pat: init.pat });
  }
  const pat = users[0]!.pat;
  state.faults.push(...(options.faults ?? []));
  let listener;
  try {
    listener = await listen(createApp(state, routes), {
      hostname: options.hostname ?? "127.0.0.1",
      port: options.port ?? 0,
      tls: options.tls,
    });
  } catch (error) {
    await Deno.remove(storageDir, { recursive: true }).catch(() => {});
    throw error;
  }
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= (async () => {
      await listener.close();
      await Promise.allSettled([...state.tasks]);
      await Deno.remove(storageDir, { recursive: true }).catch(() => {});
    })();
    return closed;
  };
  return {
    url: listener.url,
    pat,
    users,
    log: state.log,
    get connections() {
      return listener.connections;
    },
    addFault: (fault) => void state.faults.push(fault),
    clearFaults: () => void state.faults.splice(0),
    createUser: ({ username, displayname, identityType }) => ({
      id: state.addUser(username, displayname ?? username, identityType).id,
    }),
    createToken: ({ userId = 1, scopes = ALL_SCOPES, expired = false }) => {
      const token = randomToken();
      state.addToken(token, userId, scopes, expired);
      return token;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
