// The server state every interop invocation starts from, and the snapshot of the state it
// leaves: what was created, changed or deleted, read over the API with volatile fields dropped.

import { RepoManager } from "../../mod.ts";
import type { TestServer } from "../../lib/testing/mod.ts";

/** The second user (id 2) of the fixture. */
export const SECOND_USER = { username: "jdoe", displayname: "J. Doe", pat: "pat_interop_jdoe" };

/**
 * Users 1 (testuser) and 2 (jdoe); records rec-a (1: file a.txt, float and int extras, tag
 * alpha, jdoe a member, grp-a a role, linked to rec-b as "feeds"), rec-b (2), rec-old (3, in the
 * trash); collections col-a (1: rec-a, tag beta, jdoe, grp-a), col-b (2), col-c (3, a child of
 * col-a); templates tpl-a (1: record) and tpl-x (2: extras; jdoe, grp-a); group grp-a (1: jdoe).
 */
export async function seed(server: TestServer): Promise<void> {
  await using manager = new RepoManager({ host: server.url, pat: server.pat });
  const group = await manager.group({ identifier: "grp-a", create: true, title: "Group A" });
  await group.addUser(2, "member");
  const a = await manager.record({ identifier: "rec-a", create: true, title: "Record A" });
  const b = await manager.record({ identifier: "rec-b", create: true, title: "Record B" });
  const old = await manager.record({ identifier: "rec-old", create: true });
  await a.uploadString("hello\n", "a.txt");
  await a.addMetadata([
    { key: "temp", type: "float", value: 21.5, unit: "C" },
    { key: "n", type: "int", value: 3 },
  ]);
  await a.addTag("alpha");
  await a.addUser(2, "member");
  await a.addGroupRole(group.id, "member");
  await a.linkRecord(b.id, "feeds");
  await old.delete();
  const colA = await manager.collection({ identifier: "col-a", create: true, title: "Col A" });
  await manager.collection({ identifier: "col-b", create: true, title: "Col B" });
  const colC = await manager.collection({ identifier: "col-c", create: true, title: "Col C" });
  await colA.addRecordLink(a.id);
  await colA.addTag("beta");
  await colA.addUser(2, "member");
  await colA.addGroupRole(group.id, "member");
  await colA.addCollectionLink(colC.id);
  await manager.template({ identifier: "tpl-a", create: true, title: "Tpl A", type: "record" });
  const x = await manager.template({
    identifier: "tpl-x",
    create: true,
    title: "Tpl X",
    type: "extras",
    data: [{ key: "x", type: "float", value: 1.5 }],
  });
  await x.addUser(2, "member");
  await x.addGroupRole(group.id, "member");
}

const VOLATILE = /^(created_at|last_modified|timestamp|_links|_actions|deleted_at|checksum)$/;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function stable(value: unknown): unknown {
  if (typeof value === "string" && UUID.test(value)) return "<uuid>";
  if (Array.isArray(value)) return value.map(stable);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).filter(([key]) => !VOLATILE.test(key)).sort(([a], [b]) => a < b ? -1 : 1)
      .map(([key, item]) => [key, stable(item)]),
  );
}

async function get(server: TestServer, path: string): Promise<unknown> {
  const response = await fetch(`${server.url}/api/v1${path}`, {
    headers: { authorization: `Bearer ${server.pat}` },
  });
  if (!response.ok) {
    await response.body?.cancel();
    return `HTTP ${response.status}`;
  }
  return await response.json();
}

async function items(server: TestServer, path: string): Promise<{ id: number }[]> {
  const all: { id: number }[] = [];
  for (let page = 1; page <= 20; page++) {
    const separator = path.includes("?") ? "&" : "?";
    const answer = await get(server, `${path}${separator}page=${page}&per_page=100`) as {
      items?: { id: number }[];
      _pagination?: { total_pages?: number };
    };
    all.push(...(answer.items ?? []));
    if (page >= (answer._pagination?.total_pages ?? 1)) break;
  }
  return all.sort((x, y) => x.id - y.id);
}

/** The state of the server as the fixture's user sees it, as stable JSON text. */
export async function snapshot(server: TestServer): Promise<string> {
  const state: { [key: string]: unknown } = {};
  for (const record of await items(server, "/records")) {
    const base = `/records/${record.id}`;
    state[`record ${record.id}`] = {
      meta: await get(server, base),
      files: await items(server, `${base}/files`),
      links: await items(server, `${base}/records?direction=out`),
      collections: (await items(server, `${base}/collections`)).map((item) => item.id),
      users: await get(server, `${base}/roles/users`),
      groups: await get(server, `${base}/roles/groups`),
    };
  }
  for (const collection of await items(server, "/collections")) {
    const base = `/collections/${collection.id}`;
    state[`collection ${collection.id}`] = {
      meta: await get(server, base),
      records: (await items(server, `${base}/records`)).map((item) => item.id),
      children: (await items(server, `${base}/collections`)).map((item) => item.id),
      users: await get(server, `${base}/roles/users`),
      groups: await get(server, `${base}/roles/groups`),
    };
  }
  for (const template of await items(server, "/templates")) {
    const base = `/templates/${template.id}`;
    state[`template ${template.id}`] = {
      meta: await get(server, base),
      users: await get(server, `${base}/roles/users`),
      groups: await get(server, `${base}/roles/groups`),
    };
  }
  for (const group of await items(server, "/groups")) {
    state[`group ${group.id}`] = {
      meta: await get(server, `/groups/${group.id}`),
      members: await get(server, `/groups/${group.id}/members`),
    };
  }
  state.trash = await items(server, "/trash");
  return JSON.stringify(stable(state), null, 1);
}
