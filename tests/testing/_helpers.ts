// Helpers for the local server's own tests: plain fetch with JSON handling.
import type { RecordJson } from "../../lib/http/protocol.ts";
import type { TestServer } from "../../lib/testing/mod.ts";

/** A decoded answer. */
export interface Answer {
  status: number;
  // deno-lint-ignore no-explicit-any -- decoded JSON of the server under test
  body: any;
  headers: Headers;
}

/** Options of {@linkcode call}. */
export interface CallOptions {
  body?: unknown;
  raw?: BodyInit;
  headers?: Record<string, string>;
  token?: string | null;
}

/**
 * Calls the server and decodes the JSON answer (text when not JSON).
 *
 * @param server The server.
 * @param method HTTP method.
 * @param path Path below `/api/v1` or an absolute URL.
 * @param options Body, headers, token (null: none).
 * @returns The answer.
 */
export async function call(
  server: TestServer,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? server.pat : options.token;
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  const url = path.startsWith("http") ? path : `${server.url}/api/v1${path}`;
  const body = options.raw ??
    (options.body === undefined ? null : JSON.stringify(options.body));
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  let decoded: unknown = text;
  try {
    decoded = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, body: decoded, headers: response.headers };
}

/**
 * Creates a record and returns its JSON.
 *
 * @param server The server.
 * @param identifier Identifier.
 * @param extra More fields.
 * @param token Token (default: the server's).
 * @returns The record.
 */
export async function createRecord(
  server: TestServer,
  identifier: string,
  extra: Record<string, unknown> = {},
  token?: string,
): Promise<RecordJson> {
  const answer = await call(server, "POST", "/records", {
    body: { identifier, title: identifier, ...extra },
    ...(token !== undefined ? { token } : {}),
  });
  if (answer.status !== 201) throw new Error(`create failed: ${JSON.stringify(answer.body)}`);
  assertRecord(answer.body);
  return answer.body;
}

/**
 * Polls an upload until its merge task is no longer pending (at most 200 polls, 20 ms apart).
 *
 * @param server The server.
 * @param url The upload's `self` link.
 * @returns The upload as the last poll gave it.
 */
export async function pollTask(server: TestServer, url: string): Promise<Answer["body"]> {
  for (let i = 0; i < 200; i++) {
    const answer = await call(server, "GET", url);
    if (answer.body._meta.task?.state !== "pending") return answer.body;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("merge task did not finish");
}

function assertRecord(body: unknown): asserts body is RecordJson {
  const id = (body as { id?: unknown } | null)?.id;
  if (typeof id !== "number") throw new Error(`not a record: ${JSON.stringify(body)}`);
}
