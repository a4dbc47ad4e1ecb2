/**
 * The transport's connection state, opened on first use: the settings resolved, the base URL, and
 * the fetch function every request goes through (the copy-free client with its keep-alive pool,
 * Deno's fetch with the CA bundle for streamed bodies and unknown proxy routes, or the
 * certificate-ignoring node:https path).
 *
 * @module
 */

import { ConfigurationError, redactUrl } from "./errors.ts";
import type { FetchFn } from "./_node_fetch.ts";
import { httpClient } from "./_connect.ts";
import { sendWatched } from "./_idle.ts";
import { rawFetch } from "./_raw_fetch.ts";
import { ConnPool } from "./_conn_pool.ts";
import { httpsProxyFromEnv, proxyRouter } from "./_proxy_env.ts";
import type { TransportOptions, TransportSettings } from "./_transport_types.ts";
import { apiBaseUrl } from "./url.ts";
import { checkConnectionText } from "../utils/setting_text.ts";

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
  const { client, close: closeClient, caCerts } = await httpClient(settings.caBundle);
  // The node:https path (verify = false) is loaded only when used: Node's HTTP stack costs
  // start-up time. Only it needs the proxy: Deno's fetch reads the proxy variables itself.
  const insecure = settings.verify === false ? await insecureClient(settings) : undefined;
  // Requests whose body is bytes, text or none (every request the library sends but streamed
  // ones) go straight to the host through a small HTTP/1.1 client with a keep-alive pool: it
  // sends the caller's buffer without copying it, with a Content-Length, reporting every piece
  // written to the idle timer, reads answers into the reader's buffers, and costs a third of
  // fetch's CPU per small request (see docs/decisions.md, "Transfer performance", "third round"
  // and "Connection reuse in the copy-free client"). Through an `http://` proxy from the
  // environment, it carries large byte bodies and bulk answers only, one connection each (a
  // CONNECT tunnel for `https://`, the absolute form for `http://`), and Deno's fetch, which
  // pools connections to the proxy, the rest. When the route is unknown (a proxy variable may
  // not be read, or names another kind of proxy), Deno's fetch carries every request: it gets
  // bodies as a stream whose reads count as activity.
  const route = proxyRouter();
  const pool = new ConnPool();
  const direct = rawFetch({ caCerts, route, pool });
  const proxied = rawFetch({ caCerts, route });
  const pooled = watchedFetch((url, init) => fetch(url, { ...init, client: client() }));
  const fetchFn: FetchFn = (url, init) => {
    if (insecure && url.protocol === "https:") return insecure.fetch(url, init);
    const { body } = init;
    const kind = route(url).kind;
    if (
      kind === "direct" && (body === null || body instanceof Uint8Array || typeof body === "string")
    ) {
      return direct(url, init);
    }
    if (kind === "proxy" && (isLargeBytes(body) || (init.bulk && body === null))) {
      return proxied(url, init);
    }
    return pooled(url, init);
  };
  return {
    base,
    settings,
    fetch: fetchFn,
    close() {
      pool.close();
      closeClient();
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

/** Byte bodies from this size on go through a proxy without a copy. */
const LARGE_BODY_BYTES = 1 << 20;

function isLargeBytes(body: BodyInit | null): boolean {
  return body instanceof Uint8Array && body.byteLength >= LARGE_BODY_BYTES;
}
