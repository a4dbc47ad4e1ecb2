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

/**
 * Reads the proxy variables once and routes URLs by them.
 *
 * @returns The router.
 */
export function proxyRouter(): (url: URL) => ProxyRoute {
  const read = (name: string): string | undefined | null => {
    if (!envGranted(name)) return null;
    return Deno.env.get(name)?.trim() || undefined;
  };
  const values = new Map<string, string | undefined | null>();
  for (const name of [...NAMES["https:"], ...NAMES["http:"], ...NO_PROXY]) {
    values.set(name, read(name));
  }
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
    const noProxy = NO_PROXY.map((name) => values.get(name));
    if (noProxy.includes(null)) return { kind: "unknown" };
    if (bypasses(url, noProxy.find((entry) => entry !== undefined) ?? "")) {
      return { kind: "direct" };
    }
    const proxy = URL.parse(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
    if (proxy === null || proxy.protocol !== "http:") return { kind: "unknown" };
    return { kind: "proxy", proxy };
  };
}

/**
 * Whether NO_PROXY exempts the URL: comma-separated host names (a leading dot or `*.` matches
 * subdomains), `host:port`, or `*`.
 *
 * @param url The request's URL.
 * @param list The NO_PROXY value.
 * @returns True when the request goes straight to the host.
 */
export function bypasses(url: URL, list: string): boolean {
  if (list === "") return false;
  const host = url.hostname.toLowerCase();
  return list.split(",").map((entry) => entry.trim().toLowerCase().replace(/^\*?\./, ".")).some(
    (entry) =>
      entry === "*" || entry === host || entry === url.host ||
      (entry.startsWith(".") && (host.endsWith(entry) || host === entry.slice(1))),
  );
}
