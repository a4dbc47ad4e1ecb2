/**
 * The transport's connection state, opened on first use: the settings resolved, the base URL, and
 * the fetch function every request goes through (Deno's fetch with the CA bundle, the
 * certificate-ignoring node:https path, or the copy-free client for large byte bodies).
 *
 * @module
 */

import { ConfigurationError, redactUrl } from "./errors.ts";
import type { FetchFn } from "./_node_fetch.ts";
import { httpClient } from "./_connect.ts";
import { sendWatched } from "./_idle.ts";
import { rawFetch } from "./_raw_fetch.ts";
import { httpsProxyFromEnv, proxyRouter } from "./_proxy_env.ts";
import type { TransportOptions, TransportSettings } from "./_transport_types.ts";
import { apiBaseUrl } from "./url.ts";

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
  const base = apiBaseUrl(settings.host, settings.basePath);
  const custom = options.fetch;
  if (custom) return { base, settings, fetch: watchedFetch(custom), close() {} };
  const { client, caCerts } = await httpClient(settings.caBundle);
  // The node:https path (verify = false) is loaded only when used: Node's HTTP stack costs
  // start-up time. Only it needs the proxy: Deno's fetch reads the proxy variables itself.
  const insecure = settings.verify === false ? await insecureClient(settings) : undefined;
  // Large byte bodies (upload chunks) and bulk answers (downloads) go through a small HTTP/1.1
  // client that sends the caller's buffer without copying it, with a Content-Length, reporting
  // every piece written to the idle timer, and reads answers into the reader's buffers (see
  // docs/decisions.md, "Transfer performance" and "third round"). It uses an `http://` proxy
  // from the environment as Deno's fetch would; when the route is unknown (a proxy variable may
  // not be read, or names another kind of proxy), Deno's fetch keeps the request: it gets
  // bodies as a stream whose reads count as activity.
  const route = proxyRouter();
  const bulk = rawFetch({ caCerts, route });
  const pooled = watchedFetch((url, init) => fetch(url, { ...init, client }));
  const fetchFn: FetchFn = (url, init) => {
    if (insecure && url.protocol === "https:") return insecure.fetch(url, init);
    if (
      (isLargeBytes(init.body) || (init.bulk && init.body === null)) &&
      route(url).kind !== "unknown"
    ) {
      return bulk(url, init);
    }
    return pooled(url, init);
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

/** The certificate-ignoring client of `verify = false`, through the configured proxy if any. */
async function insecureClient(
  settings: TransportSettings,
): Promise<{ fetch: FetchFn; close(): void }> {
  const { insecureFetch } = await import("./_node_fetch.ts");
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
  fetchImpl: (url: URL, init: RequestInit) => Promise<Response>,
): FetchFn {
  return (url, { activity, bulk: _bulk, ...init }) => {
    const send = (body: BodyInit | null) => fetchImpl(url, { ...init, body, redirect: "manual" });
    return activity ? sendWatched(send, init.body, activity) : send(init.body);
  };
}

/** Byte bodies from this size on are sent without a copy (when no proxy may be set). */
const LARGE_BODY_BYTES = 1 << 20;

function isLargeBytes(body: BodyInit | null): boolean {
  return body instanceof Uint8Array && body.byteLength >= LARGE_BODY_BYTES;
}
