// Why a resource the user named could not be opened, in CLI terms: in the trash (and how to
// restore it), not there at all, there but not readable by this account (and which role reads
// it), or a user that does not exist. Asked only after a lookup failed.

import { InputError } from "../errors.ts";
import { RequestError } from "../http/errors.ts";
import type { TrashItemJson } from "../http/protocol.ts";
import { ResourceNotFoundError } from "../resources/errors.ts";
import type { RepoMisc } from "../resources/misc.ts";
import { terminalLine } from "./_terminal_text.ts";

/** The trash items looked at at most to find a resource by id (the trash has no id filter). */
const TRASH_SCAN_LIMIT = 1000;

/** How the user named the resource. */
export type NamedBy = { id: number } | { identifier: string };

/** The resource in the trash, when it is there (found by identifier, or by id in a bounded scan). */
export async function inTrash(
  misc: RepoMisc,
  type: string,
  named: NamedBy,
): Promise<TrashItemJson | undefined> {
  const query = "identifier" in named ? { filter: named.identifier } : {};
  let seen = 0;
  for await (const item of misc.deletedResources(query)) {
    if (
      item.type === type &&
      ("id" in named ? item.id === named.id : item.identifier === named.identifier)
    ) {
      return item;
    }
    if (++seen >= TRASH_SCAN_LIMIT) return undefined;
  }
  return undefined;
}

function label(type: string, named: NamedBy): string {
  return "id" in named
    ? `${type} with id ${named.id}`
    : `${type} '${terminalLine(named.identifier)}'`;
}

/**
 * The error to report for a failed lookup of a `type` named by `named`: the original one unless
 * the resource is missing (404, or not found by identifier) or not readable (403).
 */
export async function explainLookup(
  misc: RepoMisc,
  type: string,
  named: NamedBy,
  error: unknown,
): Promise<unknown> {
  const status = error instanceof RequestError ? error.status : undefined;
  if (status === 403) {
    return new InputError(
      `The ${label(type, named)} exists, but your account has no access to it: ask its owner ` +
        `for a role in it (the role 'member' can read it)`,
      { cause: error },
    );
  }
  if (!(error instanceof ResourceNotFoundError) && status !== 404) return error;
  const trashed = await inTrash(misc, type, named).catch(() => undefined);
  if (trashed !== undefined) {
    return new InputError(
      `The ${type} '${terminalLine(trashed.identifier)}' (id: ${trashed.id}) is in the trash: ` +
        `restore it with 'repo-apy misc restore-resource -t ${type} -i ${trashed.id}'`,
      { cause: error },
    );
  }
  if ("id" in named) {
    return new InputError(
      `No ${type} with id ${named.id} exists that your account can see: check the id ` +
        `('repo-apy ${type}s get-${type}s' lists the ${type}s you can read)`,
      { cause: error },
    );
  }
  return error;
}

/** The error to report for a user lookup that failed: a missing user is named. */
export function explainUserLookup(
  named: { id: number } | { username: string; identityType: string },
  error: unknown,
): unknown {
  if (!(error instanceof RequestError) || error.status !== 404) return error;
  const who = "id" in named
    ? `with id ${named.id}`
    : `'${terminalLine(named.username)}' (account type ${terminalLine(named.identityType)})`;
  return new InputError(
    `No user ${who} exists: check the name ('repo-apy users get-users -f <name>' searches ` +
      "the users)",
    { cause: error },
  );
}

/** The error for a trash operation on something not in the trash. */
export function notInTrash(type: string, id: number, cause?: unknown): InputError {
  return new InputError(
    `The ${type} with id ${id} is not in the trash (restored or purged already, or never ` +
      "deleted): 'repo-apy misc get-deleted-resources' lists what is there",
    cause === undefined ? undefined : { cause },
  );
}

/** Runs a trash operation; a 404 (nothing with that id in the trash) is said as such. */
export async function inTrashOnly<T>(type: string, id: number, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof RequestError && error.status === 404) throw notInTrash(type, id, error);
    throw error;
  }
}
