// Creation with a generated identifier (client-reference §5.1 "Identifiers"): the identifier of
// the title, and when it is taken `-1`, `-2`, … (the base cut so the whole stays within 50
// characters), up to 100 tries.

import { RepoApyError } from "../http/errors.ts";
import { IDENTIFIER_MAX_LENGTH } from "../http/protocol.ts";
import { generateIdentifier } from "../utils/identifier.ts";

/** The candidate identifiers for a title: `base`, `base-1`, … `base-99`. */
export function* identifierCandidates(title: string, fallback: string): Generator<string> {
  const base = generateIdentifier(title.trim()).replace(/^[-_]+|[-_]+$/g, "") || fallback;
  yield base;
  for (let n = 1; n < 100; n++) {
    const suffix = `-${n}`;
    yield `${base.slice(0, IDENTIFIER_MAX_LENGTH - suffix.length)}${suffix}`;
  }
}

/**
 * Creates a resource under the first free identifier for `title`. `load` looks the identifier up
 * and creates the resource when it is free (a `{ identifier, create: true }` load); a result with
 * `created: false` means the identifier was taken.
 */
export async function createUnique<R extends { created: boolean }>(
  title: string,
  fallback: string,
  load: (identifier: string) => Promise<R>,
): Promise<R> {
  for (const identifier of identifierCandidates(title, fallback)) {
    const resource = await load(identifier);
    if (resource.created) return resource;
  }
  throw new RepoApyError(
    `Could not find a free identifier for '${title}' after 100 tries: give the file another title`,
  );
}
