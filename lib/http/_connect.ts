// Opening the connection pool (CA bundle) and naming what went wrong when no answer came.
import { ConfigurationError } from "../errors.ts";
import { ConnectionError, TlsError } from "./errors.ts";
import type { TransportSettings } from "./_transport_types.ts";

/** The Deno HTTP clients of one transport, made on first use; `close()` closes them all. */
export interface HttpClients {
  /**
   * The pooled client: kept-alive connections for requests that are safe to repeat (Deno's fetch
   * sends a request again when a reused connection closes before the answer).
   */
  pooled(): Deno.HttpClient;
  /** A client that never reuses a connection, for requests that must not be sent twice. */
  fresh(): Deno.HttpClient;
  /** The pooled client's connections are used no more: the next request opens a new pool. */
  retire(): void;
  /** The CA bundle's certificates, when one is given. */
  caCerts?: string[];
  close(): void;
}

/**
 * Deno HTTP clients trusting the CA bundle when one is given. A transport that sends nothing
 * makes none; a bundle is read and checked at once, by making a client.
 */
export async function httpClients(caBundle: string | undefined): Promise<HttpClients> {
  const caCerts = caBundle === undefined || caBundle === ""
    ? undefined
    : await readBundle(caBundle);
  const base = caCerts ? { caCerts } : {};
  const made: Deno.HttpClient[] = [];
  const make = (options: Deno.CreateHttpClientOptions) => {
    const client = Deno.createHttpClient({ ...base, ...options });
    made.push(client);
    return client;
  };
  let pooled: Deno.HttpClient | undefined;
  let fresh: Deno.HttpClient | undefined;
  return {
    pooled: () => pooled ??= make({}),
    fresh: () => fresh ??= make({ poolMaxIdlePerHost: 0 }),
    retire: () => void (pooled = undefined),
    ...(caCerts ? { caCerts } : {}),
    close: () => made.splice(0).forEach((client) => client.close()),
  };
}

async function readBundle(caBundle: string): Promise<string[]> {
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
    Deno.createHttpClient({ caCerts: [pem] }).close();
  } catch (error) {
    throw invalid(describe(error), error);
  }
  return [pem];
}

// rustls (fetch) and OpenSSL-style (node:https) texts for a TLS handshake answered in plain HTTP.
const PLAIN_HTTP = /InvalidContentType|wrong version number|packet length too long|http request/i;
const TLS = /certificate|UnknownIssuer|tls|ssl|self.signed|handshake|corrupt message/i;
const REFUSED = /connection refused|ECONNREFUSED|os error 111/i;
const DNS =
  /dns error|failed to lookup|ENOTFOUND|EAI_AGAIN|name or service not known|no such host/i;

/**
 * Turns a failed fetch into the error that names the host and what to do: where the config file
 * was read (`settings.instance`), its keys; otherwise the environment variables and options,
 * which are then the only place for a CA bundle or `verify`.
 */
export function networkError(
  url: URL,
  error: unknown,
  settings: Pick<TransportSettings, "instance" | "caBundle"> = {},
): ConnectionError {
  const file = settings.instance !== undefined;
  const message = causeMessages(error);
  // Test the texts without the URL they quote: a host name like 'ssl.example' is no TLS error.
  const text = message.replace(/\(?(https?:\/\/|url)[^)\s]*\)?/gi, "");
  if (url.protocol === "https:" && PLAIN_HTTP.test(text)) {
    const plain = new URL(url.origin);
    plain.protocol = "http:";
    return new TlsError(
      url.origin,
      `${url.origin} answered in plain HTTP, not HTTPS (${message}): if the repository is ` +
        `served without TLS, set 'host' to ${plain.origin}${
          file ? " in the config file" : " (REPO_APY_HOST, or the host option)"
        }`,
      { cause: error },
    );
  }
  if (TLS.test(text)) {
    const bundle = settings.caBundle === undefined
      ? ""
      : `, with the CA bundle ${settings.caBundle} trusted as well`;
    const fix = file
      ? `set 'ca_bundle' to your CA's PEM file, or 'verify = false' (unsafe), in the instance ` +
        `'${settings.instance}' of the config file (or REPO_APY_CA_BUNDLE, REPO_APY_VERIFY=false)`
      : "give your CA's PEM file in REPO_APY_CA_BUNDLE (or the caBundle option), or set " +
        "REPO_APY_VERIFY=false (unsafe); the config file's 'ca_bundle' and 'verify' are not read " +
        "when REPO_APY_HOST and REPO_APY_PAT are set";
    return new TlsError(
      url.origin,
      `TLS verification of ${url.origin} failed (${message}${bundle}): ${fix}`,
      { cause: error },
    );
  }
  if (REFUSED.test(text) || DNS.test(text)) {
    const what = REFUSED.test(text) ? "it refused the connection" : "no address found (DNS)";
    return new ConnectionError(
      url.origin,
      `Could not connect to ${url.origin}, ${what} (${message}): check 'host' in the config ` +
        `file and your network`,
      { cause: error, unreachable: true },
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

/** The message of an error, or the value as text. */
export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
