import { InputError } from "../../lib/errors.ts";
import { RequestError } from "../../lib/http/errors.ts";
import { RepoUser } from "../../lib/resources/user.ts";
import { assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { setup } from "./_setup.ts";

Deno.test("RepoUser.load() finds the token owner, a user by id and by username", async () => {
  await using env = await setup();
  const transport = env.manager.transport;
  const me = await RepoUser.load(transport, { me: true });
  const { id } = env.server.createUser({ username: "jdoe", displayname: "Jane Doe" });
  const byId = await RepoUser.load(transport, { id });
  const byName = await RepoUser.load(transport, { username: "jdoe", identityType: "local" });
  assertEquals([me.id, byId.id, byName.id], [1, id, id]);
  assertEquals((await byName.meta()).displayname, "Jane Doe");
  assertEquals(String(byId), `Jane Doe (id: ${id}, account type: local, username: jdoe)`);
});

Deno.test("RepoUser.load() needs an identity type with a username", async () => {
  await using env = await setup();
  const before = env.server.log.length;
  const error = await assertRejects(
    // @ts-expect-error: identityType is checked at run time too
    () => RepoUser.load(env.manager.transport, { username: "jdoe" }),
    InputError,
  );
  assertStringIncludes(error.message, "identityType");
  await assertRejects(
    // @ts-expect-error: unknown identity types are refused
    () => RepoUser.load(env.manager.transport, { username: "jdoe", identityType: "github" }),
    InputError,
  );
  // @ts-expect-error: an empty selector is refused
  await assertRejects(() => RepoUser.load(env.manager.transport, {}), InputError);
  assertEquals(env.server.log.length, before);
  const missing = await assertRejects(
    () => RepoUser.load(env.manager.transport, { id: 999 }),
    RequestError,
  );
  assertEquals(missing.status, 404);
});

Deno.test("getRecords() and identities() list a user's records and identities", async () => {
  await using env = await setup();
  await env.manager.record({ identifier: "mine", create: true });
  const me = await RepoUser.load(env.manager.transport, { me: true });
  assertEquals((await me.getRecords()).items.map((r) => r.identifier), ["mine"]);
  const identities = await me.identities();
  assertEquals(identities.map((i) => [i.type, i.username]), [["local", "testuser"]]);
});
