// Redirects the transport does not follow, and the whitelist of those it replays without the token.
import { redactUrl, RedirectError, RequestError } from "./errors.ts";

export function redirectNotFollowed(error: RequestError): RequestError {
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

export function isWhitelisted(target: URL, whitelist: readonly string[]): boolean {
  return whitelist.some((entry) => {
    const trimmed = entry.trim().replace(/\/+$/, "");
    if (/^https?:\/\//i.test(trimmed)) return URL.parse(trimmed)?.origin === target.origin;
    return trimmed.toLowerCase() === target.host || trimmed.toLowerCase() === target.hostname;
  });
}

export function redirectRefused(method: string, from: URL, to: URL): RedirectError {
  return new RedirectError(
    redactUrl(to.href),
    `The server redirected ${method} ${redactUrl(from.href)} to ${redactUrl(to.href)}; ` +
      `redirects are not followed because the token must not go to another address: ` +
      `set 'host' to ${to.origin} if the repository moved (repo-apy config set-host), or add ` +
      `'${to.origin}' to 'whitelist' in the config file to follow it without the token`,
  );
}
