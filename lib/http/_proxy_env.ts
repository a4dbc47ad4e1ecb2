// The proxy a request goes through, read from the environment as Deno's fetch reads it:
// HTTPS_PROXY / HTTP_PROXY (either case), then ALL_PROXY, and NO_PROXY. Read only where Deno
// grants access, never prompting; a variable that may not be read makes the answer unknown.
import { envGranted } from "./_env.ts";

/** Where requests to a URL go: straight, through an `http://` proxy, or unknown. */
export type ProxyRoute =
  | { kind: "direct" }
  | { kind: "proxy"; proxy: URL }
  /** A variable may not be read, or names a proxy this client cannot use (https, socks). */
  | { kind: "unknown" };

const NAMES = {
  "https:": ["HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"],
  "http:": ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"],
} as const;
const NO_PROXY = ["NO_PROXY", "no_proxy"] as const;

/** A variable's value: undefined when unset or empty, null when Deno may not read it. */
function variable(name: string): string | undefined | null {
  if (!envGranted(name)) return null;
  return Deno.env.get(name)?.trim() || undefined;
}

/** A proxy variable's value as a URL (`host:port` means `http://host:port`). */
function proxyUrl(value: string): URL | null {
  return URL.parse(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
}

/** The NO_PROXY list (either case); null when Deno may not read it. */
function noProxyList(): string | null {
  const values = NO_PROXY.map(variable);
  return values.includes(null) ? null : values.find((value) => value !== undefined) ?? "";
}

/**
 * Reads the proxy variables once and routes URLs by them.
 *
 * @returns The router.
 */
export function proxyRouter(): (url: URL) => ProxyRoute {
  const values = new Map<string, string | undefined | null>();
  for (const name of new Set([...NAMES["https:"], ...NAMES["http:"]])) {
    values.set(name, variable(name));
  }
  const noProxy = noProxyList();
  return (url) => {
    const names = url.protocol === "https:" ? NAMES["https:"] : NAMES["http:"];
    let value: string | undefined;
    for (const name of names) {
      const found = values.get(name);
      if (found === null) return { kind: "unknown" };
      if (found !== undefined) {
        value = found;
        break;
      }
    }
    if (value === undefined) return { kind: "direct" };
    if (noProxy === null) return { kind: "unknown" };
    if (bypasses(url, noProxy)) return { kind: "direct" };
    const proxy = proxyUrl(value);
    if (proxy === null || proxy.protocol !== "http:") return { kind: "unknown" };
    return { kind: "proxy", proxy };
  };
}

/**
 * The proxy of the `verify = false` path's `https://` requests: `HTTPS_PROXY` (either case)
 * where Deno may read it (an unreadable or invalid value counts as unset there).
 *
 * @returns The proxy, or undefined for none.
 */
export function httpsProxyFromEnv(): URL | undefined {
  const value = ["HTTPS_PROXY", "https_proxy"].map(variable).find((found) => found);
  return value ? proxyUrl(value) ?? undefined : undefined;
}

/**
 * Whether the readable NO_PROXY exempts the URL (an unreadable one exempts nothing).
 *
 * @param url The request's URL.
 * @returns True when the request goes straight to the host.
 */
export function noProxyBypasses(url: URL): boolean {
  return bypasses(url, noProxyList() ?? "");
}

/**
 * The `Proxy-Authorization` value for a proxy URL with credentials (UTF-8, Basic).
 *
 * @param proxy The proxy URL.
 * @returns The header value, or undefined without credentials.
 */
export function proxyAuthorization(proxy: URL): string | undefined {
  if (proxy.username === "") return undefined;
  const user = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(user)))}`;
}

/**
 * Whether NO_PROXY exempts the URL: comma-separated host names (a leading dot or `*.` matches
 * subdomains), `host:port`, or `*`.
 *
 * @param url The request's URL.
 * @param list The NO_PROXY value.
 * @returns True when the request goes straight to the host.
 */
function bypasses(url: URL, list: string): boolean {
  if (list === "") return false;
  const host = url.hostname.toLowerCase();
  return list.split(",").map((entry) => entry.trim().toLowerCase().replace(/^\*?\./, ".")).some(
    (entry) =>
      entry === "*" || entry === host || entry === url.host ||
      (entry.startsWith(".") && (host.endsWith(entry) || host === entry.slice(1))),
  );
}
