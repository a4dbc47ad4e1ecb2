// Creation with a generated identifier (client-reference §5.1 "Identifiers"): the identifier of
// the title, and when it is taken `-1`, `-2`, … (the base cut so the whole stays within 50
// characters), up to 100 tries. An identifier is taken when the lookup finds an active resource,
// or when the create is refused on the `identifier` field alone (a 400/409 whose `errors` has the
// key `identifier`): the server keeps the identifiers of resources in the trash, which a lookup
// answers with 404. The structured field decides, never the text of the message.

import { RepoApyError } from "../errors.ts";
import { RequestError } from "../http/errors.ts";
import { IDENTIFIER_MAX_LENGTH } from "../http/protocol.ts";
import { generateIdentifier } from "../utils/identifier.ts";

/** The most candidates tried: `base`, `base-1`, … `base-99`. */
const MAX_TRIES = 100;

/** The candidate identifiers for a title: `base`, `base-1`, … `base-99`. */
function* identifierCandidates(title: string, fallback: string): Generator<string> {
  const base = generateIdentifier(title.trim()).replace(/^[-_]+|[-_]+$/g, "") || fallback;
  yield base;
  for (let n = 1; n < MAX_TRIES; n++) {
    const suffix = `-${n}`;
    yield `${base.slice(0, IDENTIFIER_MAX_LENGTH - suffix.length)}${suffix}`;
  }
}

/**
 * Whether a failed create was refused because the identifier is in use (also by a resource in
 * the trash): status 400 or 409 with a JSON body whose `errors` object has the key `identifier`.
 */
export function isIdentifierTaken(error: unknown): boolean {
  if (!(error instanceof RequestError) || (error.status !== 400 && error.status !== 409)) {
    return false;
  }
  const body = error.body;
  if (typeof body !== "object" || body === null || !("errors" in body)) return false;
  const errors = body.errors;
  return typeof errors === "object" && errors !== null && !Array.isArray(errors) &&
    Object.hasOwn(errors, "identifier");
}

/**
 * Creates a resource under the first free identifier for `title`. `load` looks the identifier up
 * and creates the resource when it is free (a `{ identifier, create: true }` load); a result with
 * `created: false`, or a create refused on the identifier ({@linkcode isIdentifierTaken}), means
 * the identifier was taken.
 */
export async function createUnique<R extends { created: boolean }>(
  title: string,
  fallback: string,
  load: (identifier: string) => Promise<R>,
): Promise<R> {
  for (const identifier of identifierCandidates(title, fallback)) {
    try {
      const resource = await load(identifier);
      if (resource.created) return resource;
    } catch (error) {
      if (!isIdentifierTaken(error)) throw error;
    }
  }
  throw new RepoApyError(
    `Could not find a free identifier for '${title}' after ${MAX_TRIES} tries: give the file ` +
      "another title, or purge the resources in the trash (misc purge-resource)",
  );
}
