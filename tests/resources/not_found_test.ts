// "Not found" is one class for both lookups: `record({ id })` and `record({ identifier })` reject
// with ResourceNotFoundError, which is also a RequestError with status 404, so a `catch` written
// for either spelling sees both.

import { assert, assertEquals, assertRejects } from "../_assert.ts";
import {
  RequestError as ExportedRequestError,
  ResourceNotFoundError as Exported,
} from "../../mod.ts";
import { RequestError } from "../../lib/http/errors.ts";
import { ResourceNotFoundError } from "../../lib/resources/errors.ts";
import { setup } from "./_setup.ts";

Deno.test("record({ id }) and record({ identifier }) reject alike: ResourceNotFoundError, 404", async () => {
  await using env = await setup();
  const byId = await assertRejects(() => env.manager.record({ id: 999999 }), ResourceNotFoundError);
  const byIdentifier = await assertRejects(
    () => env.manager.record({ identifier: "no-such-record" }),
    ResourceNotFoundError,
  );
  for (const error of [byId, byIdentifier]) {
    assert(error instanceof Exported && error instanceof ExportedRequestError);
    assert(error instanceof RequestError);
    assertEquals([error.status, error.type], [404, "record"]);
  }
  assertEquals([byId.id, byId.identifier], [999999, undefined]);
  assertEquals([byIdentifier.id, byIdentifier.identifier], [undefined, "no-such-record"]);
  const collection = await assertRejects(
    () => env.manager.collection({ id: 999999 }),
    ResourceNotFoundError,
  );
  assertEquals([collection.type, collection.status], ["collection", 404]);
});
