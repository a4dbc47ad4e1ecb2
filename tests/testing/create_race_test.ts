// The local server keeps identifiers unique as the real server's database does: of two creations
// of one identifier at once, one wins and the other gets 400.
import { assertEquals } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";

Deno.test("two creations of one identifier at once: one 201, the others 400 'Identifier is already in use.'", async () => {
  await using server = await startServer();
  for (const kind of ["records", "collections", "groups"]) {
    const answers = await Promise.all(
      [1, 2, 3].map(async () => {
        const response = await fetch(`${server.url}/api/v1/${kind}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${server.pat}`, "Content-Type": "application/json" },
          body: JSON.stringify({ identifier: "same", title: "Same" }),
        });
        return [response.status, await response.text()] as const;
      }),
    );
    assertEquals(answers.map(([status]) => status).sort(), [201, 400, 400], kind);
    for (const [status, text] of answers) {
      if (status === 400) {
        assertEquals(JSON.parse(text).errors, { identifier: ["Identifier is already in use."] });
      }
    }
  }
});
