/**
 * The one transport every request of repo-apy goes through: base URL, authentication,
 * `User-Agent`, timeouts, TLS, redirects (never followed blindly), retries and error mapping.
 *
 * @example Usage
 * ```ts
 * import { Transport } from "./transport.ts";
 * import { startServer } from "../testing/mod.ts";
 * await using server = await startServer();
 * await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
 * const info = await transport.json<{ version: string }>("GET", "/info");
 * console.log(typeof info.version); // "string"
 * ```
 *
 * @module
 */

import {
  ConfigurationError,
  ConnectionError,
  redactUrl,
  RedirectError,
  RequestError,
  requestErrorFrom,
  TimeoutError,
  TlsError,
} from "./errors.ts";
import { type FetchFn, type FetchInit, insecureFetch } from "./_node_fetch.ts";
import { proxyMayBeSet, rawFetch } from "./_raw_fetch.ts";
import { type Logger, silentLogger } from "./log.ts";
import { HEADER } from "./protocol.ts";
import {
  DEFAULT_RETRY,
  isRetriable,
  type ResolvedRetryOptions,
  retryDelay,
  type RetryOptions,
  sleep,
} from "./retry.ts";
import { apiBaseUrl, endpointUrl, type QueryParams } from "./url.ts";
import { USER_AGENT } from "./version.ts";

/** Connection settings the transport needs. */
export interface TransportSettings {
  /** Host with scheme, e.g. `https://repo.example`. */
  host: string;
  /** Personal access token. */
  pat: string;
  /** Subpath the API is served under. */
  basePath?: string;
  /** Seconds to wait for an answer, and for each piece of a streamed body. */
  timeout?: number;
  /** Whether TLS certificates are verified. */
  verify?: boolean;
  /** PEM file whose certificates are trusted in addition to the system roots. */
  caBundle?: string | undefined;
  /** Hosts redirects may lead to; the request is replayed there without the token. */
  whitelist?: readonly string[];
}

/** Options of a {@linkcode Transport}. */
export interface TransportOptions {
  /** The settings, or a function that resolves them on first use (the config file is read lazily). */
  settings: TransportSettings | (() => Promise<TransportSettings>);
  /** Replaces the built-in fetch (for special environments); TLS options then don't apply. */
  fetch?: typeof fetch;
  /** Receives debug messages about requests and retries. */
  log?: Logger;
  /** Bounds of the retry policy. */
  retry?: RetryOptions;
  /** Cancels every request of this transport (the CLI's Ctrl-C), besides each request's own. */
  signal?: AbortSignal;
}

/** A request body, or a function making a fresh body for each attempt (makes streams retriable). */
export type RequestBody = BodyInit | null | (() => BodyInit | Promise<BodyInit>);

/** Options of one request. */
export interface RequestOptions {
  /** Query parameters; lists repeat the key, objects are JSON-encoded. */
  query?: QueryParams;
  /** JSON body. */
  json?: unknown;
  /** Raw body. */
  body?: RequestBody;
  /** Extra headers. */
  headers?: Record<string, string>;
  /** Cancels the request. */
  signal?: AbortSignal;
  /** Whether the request is safe to repeat. @default {true for GET and HEAD} */
  idempotent?: boolean;
  /** Status codes returned to the caller instead of thrown as {@linkcode RequestError}. */
  expect?: readonly number[];
}

interface State {
  base: URL;
  settings: TransportSettings;
  fetch: FetchFn;
  close(): void;
}

const REDIRECT_STATUS = [301, 302, 303, 307, 308];
const MAX_REDIRECTS = 5;

/** Sends requests to one repository with one connection pool. */
export class Transport implements AsyncDisposable {
  #options: TransportOptions;
  #state: Promise<State> | undefined;
  #retry: ResolvedRetryOptions;
  #log: Logger;

  /**
   * Creates the transport; nothing is read or sent before the first request.
   *
   * @param options Settings, logger, retry bounds.
   */
  constructor(options: TransportOptions) {
    this.#options = options;
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#log = options.log ?? silentLogger;
  }

  /**
   * The API base URL (`{host}{basePath}/api/v1`).
   *
   * @returns The base URL.
   */
  async baseUrl(): Promise<URL> {
    return new URL((await this.#ready()).base);
  }

  /**
   * Sends a request and returns the response; error statuses throw {@linkcode RequestError}
   * unless listed in `expect`. Retries what is safe to retry.
   *
   * @param verb HTTP method (any case).
   * @param endpoint Path below the API base (`/records/1`) or an absolute server link.
   * @param options Query, body, headers, signal.
   * @returns The response; its body is the caller's to read or cancel.
   */
  async request(verb: string, endpoint: string, options: RequestOptions = {}): Promise<Response> {
    options = withSignal(options, this.#options.signal);
    const method = verb.toUpperCase();
    const state = await this.#ready();
    const url = endpointUrl(state.base, endpoint, options.query);
    const idempotent = options.idempotent ?? (method === "GET" || method === "HEAD");
    const replayable = !(options.body instanceof ReadableStream);
    let waited = 0;
    for (let attempt = 1;; attempt++) {
      let error: unknown;
      try {
        const response = await this.#send(state, method, url, options);
        if (response.ok || options.expect?.includes(response.status)) return response;
        const failure = await requestErrorFrom(response, method, url.href);
        error = response.status >= 300 && response.status < 400
          ? redirectNotFollowed(failure)
          : failure;
      } catch (caught) {
        if (options.signal?.aborted) throw options.signal.reason;
        error = caught;
      }
      const delay = retryDelay(error, attempt, this.#retry);
      const retry = replayable && attempt < this.#retry.maxAttempts &&
        isRetriable(error, { idempotent }) && waited + delay <= this.#retry.maxTotalWaitMs;
      if (!retry) throw error;
      this.#log.debug(
        `${method} ${redactUrl(url.href)} failed (${
          describe(error)
        }); retry ${attempt} in ${delay} ms`,
      );
      waited += delay;
      await sleep(delay, options.signal);
    }
  }

  /**
   * Sends a request and parses the JSON answer; an empty body gives `{}`. A body that is not
   * JSON (an HTML page from a proxy) throws {@linkcode RequestError} with the text as `body`.
   *
   * @typeParam T Expected shape of the answer.
   * @param method HTTP method.
   * @param endpoint Path below the API base or an absolute server link.
   * @param options Query, body, headers, signal.
   * @returns The parsed body.
   */
  async json<T>(method: string, endpoint: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.request(method, endpoint, options);
    const text = await response.text();
    if (text.trim() === "") return {} as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      const url = redactUrl(endpointUrl(await this.baseUrl(), endpoint, options.query).href);
      const init = { status: response.status, method, url, body: text, headers: response.headers };
      const { description } = new RequestError(init);
      throw new RequestError({
        ...init,
        message: `${method} ${url} answered ${response.status} with a body that is not JSON ` +
          `(${description})`,
      });
    }
  }

  /** Closes the connection pool. */
  async close(): Promise<void> {
    const state = this.#state;
    this.#state = undefined;
    if (state) (await state.catch(() => undefined))?.close();
  }

  /** Closes the connection pool (`await using`). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #ready(): Promise<State> {
    this.#state ??= this.#init();
    const state = this.#state;
    state.catch(() => {
      if (this.#state === state) this.#state = undefined;
    });
    return state;
  }

  async #init(): Promise<State> {
    const raw = this.#options.settings;
    const settings = typeof raw === "function" ? await raw() : raw;
    const base = apiBaseUrl(settings.host, settings.basePath);
    const custom = this.#options.fetch;
    if (custom) {
      // Redirects are handled (and refused) by #send, never followed by the fetch itself.
      const fetchFn: FetchFn = (url, init) => custom(url, { ...init, redirect: "manual" });
      return { base, settings, fetch: fetchFn, close() {} };
    }
    const { client, caCerts } = await httpClient(settings.caBundle);
    const insecure = settings.verify === false ? insecureFetch() : undefined;
    // Large byte bodies (upload chunks) go through a small HTTP/1.1 client that sends the
    // caller's buffer without copying it (see docs/decisions.md, "Transfer performance"). Only
    // Deno's fetch honours a proxy, so it keeps every request when one may be configured.
    const bulk = proxyMayBeSet() ? undefined : rawFetch({ caCerts });
    const fetchFn: FetchFn = (url, init) => {
      if (insecure && url.protocol === "https:") return insecure.fetch(url, init);
      if (bulk && isLargeBytes(init.body)) return bulk(url, init);
      return fetch(url, { ...init, client, redirect: "manual" });
    };
    return {
      base,
      settings,
      fetch: fetchFn,
      close() {
        client.close();
        insecure?.close();
      },
    };
  }

  async #send(state: State, method: string, url: URL, options: RequestOptions): Promise<Response> {
    const headers = new Headers(options.headers);
    headers.set(HEADER.authorization, `Bearer ${state.settings.pat}`);
    headers.set(HEADER.userAgent, USER_AGENT);
    let body: BodyInit | null;
    if (options.json !== undefined) {
      headers.set(HEADER.contentType, "application/json");
      body = JSON.stringify(options.json);
    } else {
      const raw = options.body ?? null;
      body = typeof raw === "function" ? await raw() : raw;
    }
    let target = url;
    let currentMethod = method;
    for (let hop = 0;; hop++) {
      const response = await this.#fetchOnce(state, target, {
        method: currentMethod,
        headers,
        body,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const location = response.headers.get(HEADER.location);
      if (!REDIRECT_STATUS.includes(response.status) || location === null) return response;
      await response.body?.cancel();
      const next = URL.parse(location, target);
      if (next === null) {
        throw new RedirectError(
          redactUrl(location),
          `The server redirected ${currentMethod} ${redactUrl(target.href)} to an invalid ` +
            `address: check 'host' and 'base_path' in the config file`,
        );
      }
      if (!isWhitelisted(next, state.settings.whitelist ?? [])) {
        throw redirectRefused(currentMethod, target, next);
      }
      if (hop + 1 >= MAX_REDIRECTS) {
        throw new RedirectError(
          redactUrl(next.href),
          `Too many redirects (${MAX_REDIRECTS}), the last to ${redactUrl(next.href)}: the ` +
            `server redirects in a loop; set 'host' to the repository's final address`,
        );
      }
      this.#log.debug(`Following redirect to whitelisted ${next.origin} without the token`);
      headers.delete(HEADER.authorization);
      if (response.status === 303 || (response.status <= 302 && currentMethod === "POST")) {
        currentMethod = "GET";
        body = null;
        headers.delete(HEADER.contentType);
      }
      target = next;
    }
  }

  async #fetchOnce(
    state: State,
    url: URL,
    init: { method: string; headers: Headers; body: BodyInit | null; signal?: AbortSignal },
  ): Promise<Response> {
    const timeoutMs = (state.settings.timeout ?? 60) * 1000;
    const controller = new AbortController();
    const signal = init.signal
      ? AbortSignal.any([controller.signal, init.signal])
      : controller.signal;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const fetchInit: FetchInit = {
      method: init.method,
      headers: init.headers,
      body: init.body,
      signal,
    };
    this.#log.debug(`${init.method} ${redactUrl(url.href)}`);
    let response: Response;
    try {
      response = await state.fetch(url, fetchInit);
    } catch (error) {
      if (init.signal?.aborted) throw init.signal.reason;
      if (timedOut) throw new TimeoutError(url.origin, timeoutMs);
      throw networkError(url, error);
    } finally {
      clearTimeout(timer);
    }
    return guardBody(response, { controller, timeoutMs, host: url.origin });
  }
}

async function httpClient(
  caBundle: string | undefined,
): Promise<{ client: Deno.HttpClient; caCerts?: string[] }> {
  if (!caBundle) return { client: Deno.createHttpClient({}) };
  let pem: string;
  try {
    pem = await Deno.readTextFile(caBundle);
  } catch (error) {
    const reason = error instanceof Deno.errors.NotCapable
      ? `run Deno with --allow-read=${caBundle}`
      : "fix 'ca_bundle' in the config file (or the caBundle option)";
    throw new ConfigurationError(
      `Cannot read the CA bundle ${caBundle} (${describe(error)}): ${reason}`,
      { cause: error },
    );
  }
  const invalid = (reason: string, cause?: unknown) =>
    new ConfigurationError(
      `The CA bundle ${caBundle} is not a valid PEM file (${reason}): point 'ca_bundle' at a ` +
        `file with '-----BEGIN CERTIFICATE-----' blocks`,
      cause === undefined ? undefined : { cause },
    );
  if (!pem.includes("-----BEGIN CERTIFICATE-----")) throw invalid("no certificate in it");
  try {
    return { client: Deno.createHttpClient({ caCerts: [pem] }), caCerts: [pem] };
  } catch (error) {
    throw invalid(describe(error), error);
  }
}

function redirectNotFollowed(error: RequestError): RequestError {
  return new RequestError({
    status: error.status,
    method: error.method,
    url: error.url,
    body: error.body,
    headers: error.headers,
    message: `The server answered ${error.method} ${error.url} with ${error.status} but no ` +
      `redirect target (Location): check 'host' and 'base_path' in the config file`,
  });
}

function isWhitelisted(target: URL, whitelist: readonly string[]): boolean {
  return whitelist.some((entry) => {
    const trimmed = entry.trim().replace(/\/+$/, "");
    if (/^https?:\/\//i.test(trimmed)) return URL.parse(trimmed)?.origin === target.origin;
    return trimmed.toLowerCase() === target.host || trimmed.toLowerCase() === target.hostname;
  });
}

function redirectRefused(method: string, from: URL, to: URL): RedirectError {
  return new RedirectError(
    redactUrl(to.href),
    `The server redirected ${method} ${redactUrl(from.href)} to ${redactUrl(to.href)}; ` +
      `redirects are not followed because the token must not go to another address: ` +
      `set 'host' to ${to.origin} if the repository moved (repo-apy config set-host), or add ` +
      `'${to.origin}' to 'whitelist' in the config file to follow it without the token`,
  );
}

function networkError(url: URL, error: unknown): ConnectionError {
  const message = causeMessages(error);
  if (/certificate|UnknownIssuer|tls|ssl|self.signed/i.test(message)) {
    return new TlsError(
      url.origin,
      `TLS verification of ${url.origin} failed (${message}): set 'ca_bundle' to your CA's PEM file, or 'verify = false' (unsafe) in the config file`,
      { cause: error },
    );
  }
  return new ConnectionError(
    url.origin,
    `Could not connect to ${url.origin} (${message}): check the host and your network`,
    { cause: error },
  );
}

function causeMessages(error: unknown): string {
  const messages: string[] = [];
  for (let current = error; current !== undefined && messages.length < 5;) {
    messages.push(current instanceof Error ? current.message : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return messages.join(": ");
}

function guardBody(
  response: Response,
  guard: { controller: AbortController; timeoutMs: number; host: string },
): Response {
  const source = response.body;
  if (source === null) return response;
  const reader = openReader(source);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  // A byte stream, so consumers can read into their own reused buffer (BYOB) and a multi-GB
  // download creates no garbage per chunk; a pause longer than the timeout aborts the body.
  const body = new ReadableStream({
    type: "bytes",
    async pull(controller) {
      timer = setTimeout(() => {
        timedOut = true;
        guard.controller.abort();
      }, guard.timeoutMs);
      try {
        const request = controller.byobRequest;
        const view = request?.view;
        if (request && view && reader.byob) {
          const target = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
          const { done, value } = await reader.byob.read(target);
          if (done) controller.close();
          if (value) request.respondWithNewView(value);
          else request.respond(0);
          return;
        }
        const { done, value } = reader.byob
          ? await reader.byob.read(new Uint8Array(READ_SIZE))
          : await reader.plain.read();
        if (done) controller.close();
        else if (value.byteLength > 0) controller.enqueue(value);
      } catch (error) {
        controller.error(
          timedOut ? new TimeoutError(guard.host, guard.timeoutMs) : new ConnectionError(
            guard.host,
            `The connection to ${guard.host} broke while reading the answer: try again`,
            { cause: error },
          ),
        );
      } finally {
        clearTimeout(timer);
      }
    },
    cancel(reason) {
      clearTimeout(timer);
      return (reader.byob ?? reader.plain).cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

const READ_SIZE = 65_536;

/** Byte bodies from this size on are sent without a copy (when no proxy may be set). */
const LARGE_BODY_BYTES = 1 << 20;

function isLargeBytes(body: BodyInit | null): boolean {
  return body instanceof Uint8Array && body.byteLength >= LARGE_BODY_BYTES;
}

type BodyReader =
  | { byob: ReadableStreamBYOBReader; plain?: undefined }
  | { byob?: undefined; plain: ReadableStreamDefaultReader<Uint8Array> };

function openReader(source: ReadableStream<Uint8Array>): BodyReader {
  try {
    return { byob: source.getReader({ mode: "byob" }) };
  } catch {
    return { plain: source.getReader() };
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The request's options with `signal` (the transport's) joined to the request's own signal. */
function withSignal(options: RequestOptions, signal: AbortSignal | undefined): RequestOptions {
  if (signal === undefined) return options;
  return {
    ...options,
    signal: options.signal ? AbortSignal.any([signal, options.signal]) : signal,
  };
}
