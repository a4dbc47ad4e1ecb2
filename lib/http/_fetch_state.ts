/**
 * The transport's connection state, opened on first use: the settings resolved, the base URL, and
 * the fetch function every request goes through. That is Deno's `fetch` with the transport's
 * HTTP clients (the CA bundle; Deno reads the proxy variables itself): a pooled one for requests
 * safe to repeat, one without a pool for the others. Two exceptions:
 * `verify = false` goes through node:https, the one client that can skip certificate checks,
 * and a PUT of a large byte body (upload data) is written by a small sender on a connection of
 * its own, without fetch's copy of the body (`_put_sender.ts`).
 *
 * @module
 */

import { ConfigurationError } from "../errors.ts";
import { redactUrl } from "./errors.ts";
import type { FetchFn } from "./_node_fetch.ts";
import { httpClients } from "./_connect.ts";
import { sendWatched } from "./_idle.ts";
import { isLargePut, largePutSender, noProxyConfigured } from "./_put_sender.ts";
import type { TransportOptions, TransportSettings } from "./_transport_types.ts";
import { apiBaseUrl } from "./url.ts";
import { checkConnectionText } from "./setting_text.ts";

/** What a transport holds once its settings are read: base URL, settings, fetch, closer. */
export interface FetchState {
  base: URL;
  settings: TransportSettings;
  fetch: FetchFn;
  close(): void;
}

/**
 * Reads the settings and builds the fetch function of a transport.
 *
 * @param options The transport's settings (or their resolver) and custom fetch.
 * @returns The state.
 * @throws {ConfigurationError} When the proxy is not an `http://` URL.
 */
export async function openFetchState(
  options: Pick<TransportOptions, "settings" | "fetch">,
): Promise<FetchState> {
  const raw = options.settings;
  const settings = typeof raw === "function" ? await raw() : raw;
  checkConnectionText(settings, "given to the transport");
  const base = apiBaseUrl(settings.host, settings.basePath);
  const custom = options.fetch;
  if (custom) return { base, settings, fetch: watchedFetch(custom), close() {} };
  const clients = await httpClients(settings.caBundle);
  // The node:https path is loaded only when used: Node's HTTP stack costs start-up time.
  const insecure = settings.verify === false ? await insecureClient(settings) : undefined;
  const pooled = watchedFetch(async (url, init, idempotent) => {
    const response = await fetch(url, {
      ...init,
      client: idempotent ? clients.pooled() : clients.fresh(),
    });
    // Deno decodes an answer only when it chose Accept-Encoding itself.
    const framed = transferCodingWins(response, () => clients.retire());
    return "accept-encoding" in (init.headers as Record<string, string>) ? decoded(framed) : framed;
  });
  const sender = noProxyConfigured() ? largePutSender(clients.caCerts, pooled) : undefined;
  return {
    base,
    settings,
    fetch: (url, init) =>
      insecure && url.protocol === "https:"
        ? insecure.fetch(url, init).then((answer) => decoded(transferCodingWins(answer)))
        : sender && isLargePut(init)
        ? sender(url, init).then((answer) => transferCodingWins(answer))
        : pooled(url, init),
    close() {
      clients.close();
      insecure?.close();
    },
  };
}

/** The certificate-ignoring client of `verify = false`, through the configured proxy if any. */
async function insecureClient(
  settings: TransportSettings,
): Promise<{ fetch: FetchFn; close(): void }> {
  const { insecureFetch, httpsProxyFromEnv } = await import("./_node_fetch.ts");
  const proxy = settings.proxy !== undefined ? URL.parse(settings.proxy) : httpsProxyFromEnv();
  if (proxy === null || (proxy !== undefined && proxy.protocol !== "http:")) {
    throw new ConfigurationError(
      `The proxy '${redactUrl(settings.proxy ?? "")}' is not an http:// URL: write it like ` +
        `'http://proxy.example:3128'`,
    );
  }
  return insecureFetch({ proxy: proxy ?? undefined });
}

/**
 * A standard fetch as the transport calls it: redirects are handled (and refused) by the
 * transport, never followed by the fetch itself, and the body's progress counts as activity.
 */
function watchedFetch(
  fetchImpl: (url: URL, init: RequestInit, idempotent: boolean) => Promise<Response>,
): FetchFn {
  return (url, { activity, idempotent, ...init }) => {
    const send = (body: BodyInit | null) =>
      fetchImpl(url, { ...init, body, redirect: "manual" }, idempotent);
    return activity ? sendWatched(send, init.body, activity) : send(init.body);
  };
}

/**
 * The answer without its Content-Length when it has a Transfer-Encoding too: the transfer coding
 * frames the body (RFC 9112 6.3), as the HTTP client read it, so the length is no size of the
 * data and nothing downstream (a download's size check, progress) may take it for one. Both
 * framings in one answer may be a smuggling attempt: `retire` keeps the connection it came on
 * from being used again.
 */
function transferCodingWins(response: Response, retire?: () => void): Response {
  const headers = response.headers;
  if (!headers.has("transfer-encoding") || !headers.has("content-length")) return response;
  retire?.();
  const kept = new Headers(headers);
  kept.delete("content-length");
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers: kept,
  });
}

/** Content codings a body is decoded from (the names `DecompressionStream` takes). */
const CODINGS: Record<string, CompressionFormat> = {
  gzip: "gzip",
  "x-gzip": "gzip",
  deflate: "deflate",
  br: "brotli",
};

/**
 * The answer with its body decoded when the server encoded it although it was not asked to (or
 * the HTTP client does not decode): the caller always reads the content. The headers are kept,
 * `Content-Encoding` included, as Deno's fetch keeps them when it decodes.
 */
function decoded(response: Response): Response {
  const coding = response.headers.get("content-encoding")?.trim().toLowerCase() ?? "identity";
  if (coding === "identity" || response.body === null) return response;
  const format = CODINGS[coding];
  if (format === undefined) {
    response.body.cancel().catch(() => {});
    throw new TypeError(`the server sent the answer in an unknown coding '${coding}'`);
  }
  return new Response(response.body.pipeThrough(new DecompressionStream(format)), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
