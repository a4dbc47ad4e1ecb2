/**
 * The one transport every request of repo-apy goes through: base URL, authentication,
 * `User-Agent`, timeouts, TLS, redirects (never followed blindly), retries and error mapping.
 *
 * @module
 */

import { stringifyJson } from "./_float_json.ts";
import {
  ConnectionError,
  redactUrl,
  RedirectError,
  RequestError,
  requestErrorFrom,
  ResponseTooLargeError,
  TimeoutError,
} from "./errors.ts";
import type { FetchInit } from "./_node_fetch.ts";
import { headerRecord } from "./_header_record.ts";
import { describe, networkError } from "./_connect.ts";
import { guardBody, IdleTimer, watchReads } from "./_idle.ts";
import { isWhitelisted, redirectNotFollowed, redirectRefused } from "./_redirect.ts";
import { readAnswerText, redactSecrets } from "./_body.ts";
import { type Logger, silentLogger } from "./log.ts";
import { hostPacer, type Pacer } from "./pacer.ts";
import { HEADER } from "./protocol.ts";
import {
  attemptLimit,
  DEFAULT_RETRY,
  isRetriable,
  type ResolvedRetryOptions,
  retryDelay,
  sleep,
} from "./retry.ts";
import { endpointUrl } from "./url.ts";
import { USER_AGENT } from "./version.ts";
import { type FetchState, openFetchState } from "./_fetch_state.ts";
import {
  DEFAULT_TIMEOUT,
  type JsonObjectOptions,
  MAX_JSON_BYTES,
  type RequestOptions,
  type TransportOptions,
} from "./_transport_types.ts";

// The settings and option types live in a private module, re-exported here.
export * from "./_transport_types.ts";

const REDIRECT_STATUS = [301, 302, 303, 307, 308];
const MAX_REDIRECTS = 5;

/**
 * Sends requests to one repository with one connection pool.
 *
 * @example Requests: raw, JSON, one JSON object (permissions: `--allow-net` for the host)
 * ```ts
 * import { Transport } from "@repo/apy/http";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * const transport = new Transport({ settings: { host: server.url, pat: server.pat } });
 * assert.strictEqual((await transport.baseUrl()).href, `${server.url}/api/v1`);
 * const created = await transport.jsonObject<{ id: number }>("POST", "/records", {
 *   json: { identifier: "sample-1", title: "Sample 1" },
 *   shape: { id: "number" }, // anything else throws before a path is built from it
 * });
 * const meta = await transport.json<{ title: string }>("GET", `/records/${created.id}`);
 * assert.strictEqual(meta.title, "Sample 1");
 * const response = await transport.request("GET", `/records/${created.id}`); // body: yours
 * assert.strictEqual((await response.json()).id, created.id);
 * await transport.close(); // what `await using` does at the end of the scope
 * ```
 */
export class Transport implements AsyncDisposable {
  #options: TransportOptions;
  #state: Promise<FetchState> | undefined;
  #retry: ResolvedRetryOptions;
  #log: Logger;
  #pacer: Pacer | undefined;
  #maxJsonBytes: number;
  #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  /**
   * Creates the transport; nothing is read or sent before the first request.
   *
   * @param options Settings, logger, retry bounds.
   */
  constructor(options: TransportOptions) {
    this.#options = options;
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#log = options.log ?? silentLogger;
    this.#pacer = options.pacer;
    this.#maxJsonBytes = options.maxJsonBytes ?? MAX_JSON_BYTES;
    this.#sleep = options.sleep ?? sleep;
    if (!(this.#maxJsonBytes > 0)) {
      throw new RangeError(
        `Cannot read answers as 'maxJsonBytes' must be positive: current value is ${this.#maxJsonBytes}`,
      );
    }
  }

  /** The API base URL (`{host}{basePath}/api/v1`); nothing is sent. */
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
    const { response, timer, host, signal } = await this.#exchange(verb, endpoint, options);
    return guardBody(response, timer, host, signal);
  }

  /** {@linkcode Transport.request} with the answer's body not yet guarded by its idle timer. */
  async #exchange(verb: string, endpoint: string, options: RequestOptions): Promise<Answer> {
    options = withSignal(options, this.#options.signal);
    const method = verb.toUpperCase();
    const state = await this.#ready();
    const url = endpointUrl(state.base, endpoint, options.query);
    const idempotent = options.idempotent ?? (method === "GET" || method === "HEAD");
    const replayable = !(options.body instanceof ReadableStream);
    const pacer = this.#pacer ?? hostPacer(state.base.origin);
    let waited = 0;
    for (let attempt = 1;; attempt++) {
      waited += await pacer.wait(options.signal);
      let error: unknown;
      try {
        const answer = await this.#send(state, method, url, options, idempotent);
        const { response } = answer;
        if (response.status !== 429) pacer.succeeded();
        if (response.ok || options.expect?.includes(response.status)) return answer;
        const failure = await requestErrorFrom(
          guardBody(response, answer.timer, answer.host, answer.signal),
          method,
          {
            url: url.href,
            secrets: [state.settings.pat],
          },
        );
        error = response.status >= 300 && response.status < 400
          ? redirectNotFollowed(failure)
          : failure;
      } catch (caught) {
        if (options.signal?.aborted) throw options.signal.reason;
        error = caught;
      }
      const limited = error instanceof RequestError && error.status === 429;
      // A 429 pauses every request of the process (the pacer adds jitter); other failures wait
      // only here.
      const computed = retryDelay(error, attempt, this.#retry);
      const delay = limited ? pacer.jittered(computed) : computed;
      const retry = replayable && attempt < attemptLimit(error, this.#retry) &&
        isRetriable(error, { idempotent }) && waited + delay <= this.#retry.maxTotalWaitMs;
      if (!retry) throw error;
      if (limited) pacer.limited(delay);
      if (error instanceof ConnectionError && error.unreachable) {
        this.#log.info(`Could not connect to ${error.host}; trying once more in ${delay} ms`);
      } else {
        this.#log.debug(
          `${method} ${redactUrl(url.href)} failed (${describe(error)}); retry ${attempt} in ` +
            `${delay} ms`,
        );
      }
      if (!limited) {
        await this.#sleep(delay, options.signal);
        waited += delay;
      }
    }
  }

  /**
   * Sends a request and parses the JSON answer; an empty body gives `{}`. A body that is not
   * JSON (an HTML page from a proxy), or JSON that is neither an object nor an array, throws
   * {@linkcode RequestError} with the text as `body`; one larger than `maxJsonBytes` throws
   * {@linkcode ResponseTooLargeError}.
   *
   * @typeParam T Expected shape of the answer.
   * @param method HTTP method.
   * @param endpoint Path below the API base or an absolute server link.
   * @param options Query, body, headers, signal.
   * @returns The parsed body.
   */
  async json<T>(method: string, endpoint: string, options: RequestOptions = {}): Promise<T> {
    const { value } = await this.#json(method, endpoint, options, "a JSON object or list");
    return value as T;
  }

  /**
   * Like {@linkcode Transport.json}, for answers that must be one JSON object (a resource, a
   * page): anything else, or an object without the keys of `shape`, throws
   * {@linkcode RequestError} before a caller can build a path like `/records/undefined` from it.
   *
   * @typeParam T Expected shape of the answer.
   * @param method HTTP method.
   * @param endpoint Path below the API base or an absolute server link.
   * @param options Query, body, headers, signal, and the keys the object must have.
   * @returns The parsed object.
   */
  async jsonObject<T extends object>(
    method: string,
    endpoint: string,
    options: JsonObjectOptions = {},
  ): Promise<T> {
    const { shape, ...request } = options;
    const { value, fail } = await this.#json(method, endpoint, request, "a JSON object");
    if (Array.isArray(value)) throw fail("a JSON list", "a JSON object");
    const object = value as Record<string, unknown>;
    for (const [key, type] of Object.entries(shape ?? {})) {
      const found = object[key];
      const ok = type === "array"
        ? Array.isArray(found)
        : type === "object"
        ? typeof found === "object" && found !== null && !Array.isArray(found)
        : type === "number"
        ? typeof found === "number"
        : typeof found === "string";
      if (!ok) throw fail(`a JSON object without '${key}' (${type})`, "a JSON object");
    }
    return value as T;
  }

  async #json(
    method: string,
    endpoint: string,
    options: RequestOptions,
    expected: string,
  ): Promise<{ value: object; fail: (found: string, wanted: string) => RequestError }> {
    const { response, timer, host, signal } = await this.#exchange(method, endpoint, options);
    const state = await this.#ready();
    // Built only for an error: most answers never need the redacted address.
    const address = () => redactUrl(endpointUrl(state.base, endpoint, options.query).href);
    // Read directly under the idle timer: no guarded copy of the body stream is needed.
    const read = await readAnswerText(
      response,
      this.#maxJsonBytes,
      watchReads(timer, host, signal),
    );
    if (read.truncated) throw new ResponseTooLargeError(method, address(), this.#maxJsonBytes);
    const errorInit = () => ({
      status: response.status,
      method,
      url: address(),
      body: redactSecrets(read.text, [state.settings.pat]),
      headers: response.headers,
    });
    const fail = (found: string, wanted: string) => {
      const init = errorInit();
      return new RequestError({
        ...init,
        message:
          `${method} ${init.url} answered ${response.status} with ${found} where ${wanted} ` +
          `was expected: check 'host' and 'base_path', or whether a proxy answers in the ` +
          `server's place`,
      });
    };
    if (read.text.trim() === "") return { value: {}, fail };
    let value: unknown;
    try {
      value = JSON.parse(read.text);
    } catch {
      const init = errorInit();
      const { description } = new RequestError(init);
      throw new RequestError({
        ...init,
        message: `${method} ${init.url} answered ${response.status} with a body that is not JSON ` +
          `(${description})`,
      });
    }
    if (typeof value !== "object" || value === null) {
      const text = redactSecrets(read.text, [state.settings.pat]);
      throw fail(`the JSON value ${text.trim().slice(0, 40)}`, expected);
    }
    return { value, fail };
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

  #ready(): Promise<FetchState> {
    this.#state ??= openFetchState(this.#options);
    const state = this.#state;
    state.catch(() => {
      if (this.#state === state) this.#state = undefined;
    });
    return state;
  }

  async #send(
    state: FetchState,
    method: string,
    url: URL,
    options: RequestOptions,
    idempotent: boolean,
  ): Promise<Answer> {
    // A plain record with lower-case names (see headerRecord).
    const headers = headerRecord(options.headers);
    headers.authorization = `Bearer ${state.settings.pat}`;
    headers["user-agent"] = USER_AGENT;
    let body: BodyInit | null;
    if (options.json !== undefined) {
      headers["content-type"] = "application/json";
      body = stringifyJson(options.json); // a float stays a float (3.0)
    } else {
      const raw = options.body ?? null;
      body = typeof raw === "function" ? await raw() : raw;
    }
    let target = url;
    let currentMethod = method;
    for (let hop = 0;; hop++) {
      const answer = await this.#fetchOnce(state, target, {
        method: currentMethod,
        headers,
        body,
        idempotent,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const { response } = answer;
      const location = response.headers.get(HEADER.location);
      if (!REDIRECT_STATUS.includes(response.status) || location === null) return answer;
      answer.timer.stop();
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
      delete headers.authorization;
      if (response.status === 303 || (response.status <= 302 && currentMethod === "POST")) {
        currentMethod = "GET";
        body = null;
        delete headers["content-type"];
      }
      target = next;
    }
  }

  async #fetchOnce(
    state: FetchState,
    url: URL,
    init: {
      method: string;
      headers: Record<string, string>;
      body: BodyInit | null;
      idempotent: boolean;
      signal?: AbortSignal;
    },
  ): Promise<Answer> {
    // Idle time only: every piece of the body sent, and every piece of the answer read, starts
    // the timeout again.
    const timer = new IdleTimer((state.settings.timeout ?? DEFAULT_TIMEOUT) * 1000);
    const signal = init.signal
      ? AbortSignal.any([timer.controller.signal, init.signal])
      : timer.controller.signal;
    const fetchInit: FetchInit = {
      method: init.method,
      headers: init.headers,
      body: init.body,
      idempotent: init.idempotent,
      signal,
      activity: () => timer.touch(),
    };
    // Most addresses hold nothing to redact: parsing each one again costs every request.
    const plain = url.username === "" && url.password === "" && url.search === "";
    this.#log.debug(`${init.method} ${plain ? url.href : redactUrl(url.href)}`);
    let response: Response;
    try {
      response = await state.fetch(url, fetchInit);
    } catch (error) {
      timer.stop();
      if (init.signal?.aborted) throw init.signal.reason;
      if (timer.fired) throw new TimeoutError(url.origin, timer.timeoutMs);
      throw networkError(url, error, state.settings);
    }
    // The caller reads the body under the timer (guardBody or watchReads).
    return { response, timer, host: url.origin, ...(init.signal ? { signal: init.signal } : {}) };
  }
}

/** An answer whose body is still to be read under its request's idle timer. */
interface Answer {
  response: Response;
  timer: IdleTimer;
  host: string;
  /** The caller's signal: it ends the reading of the body too. */
  signal?: AbortSignal;
}

/** The request's options with `signal` (the transport's) joined to the request's own signal. */
function withSignal(options: RequestOptions, signal: AbortSignal | undefined): RequestOptions {
  // The CLI passes its one interrupt signal both ways: nothing to join.
  if (signal === undefined || options.signal === signal) return options;
  return {
    ...options,
    signal: options.signal ? AbortSignal.any([signal, options.signal]) : signal,
  };
}
