import { assertEquals, assertStringIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { repo } from "./_records.ts";
import { must } from "./_resources.ts";

Deno.test("users get-users prints usernames; -f filters; --json keeps the page", async () => {
  await using server = await startServer({
    users: [{ username: "jdoe", displayname: "Jane Doe" }, {
      username: "rroe",
      displayname: "Richard Roe",
      identityType: "ldap",
    }],
  });
  const all = await must(server, ["users", "get-users"]);
  assertStringIncludes(all.stdout, "Found 3 user(s) on 1 page(s)");
  assertStringIncludes(all.stdout, "Jane Doe (id: 2, username: jdoe, identity type: local)");
  assertStringIncludes(all.stdout, "Richard Roe (id: 3, username: rroe, identity type: ldap)");
  const filtered = await must(server, ["users", "get-users", "-f", "roe"]);
  assertStringIncludes(filtered.stdout, "Found 1 user(s)");
  assertStringIncludes(filtered.stdout, "username: rroe");
  const paged = await must(server, ["users", "get-users", "-n", "1", "-p", "2", "--json"]);
  const page = JSON.parse(paged.stdout);
  assertEquals([page.items.length, page._pagination.total_items], [1, 3]);
});

Deno.test("users show-info by id and by username with identity type", async () => {
  await using server = await startServer({
    users: [{ username: "rroe", displayname: "Richard Roe", identityType: "ldap" }],
  });
  const byName = await must(server, ["users", "show-info", "-U", "rroe", "-D", "ldap"]);
  assertEquals(
    byName.stdout,
    "Display name: Richard Roe\nID: 2\nUsername: rroe\nIdentity type: ldap\n",
  );
  const byId = await must(server, ["users", "show-info", "-u", "1", "--json"]);
  assertEquals(JSON.parse(byId.stdout).identity.username, "testuser");
  const none = await repo(server, ["users", "show-info"]);
  assertEquals(none.code, 1); // exit 1 as the Python client: its code wins (issue 31)
  const noType = await repo(server, ["users", "show-info", "-U", "rroe"]);
  assertEquals(noType.code, 1);
  assertStringIncludes(noType.stderr, "-D/--identity-type");
  assertStringIncludes(none.stderr, "Please specify either the id (-u) or the username");
  const missing = await repo(server, ["users", "show-info", "-U", "rroe", "-D", "local"]);
  assertEquals(missing.code, 1);
});
