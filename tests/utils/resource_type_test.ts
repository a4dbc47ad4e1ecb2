import { assertEquals, assertStringIncludes, assertThrows } from "../_assert.ts";
import { InputError } from "../../lib/errors.ts";
import { getResourceType, RESOURCE_TYPES } from "../../lib/utils/mod.ts";

Deno.test("RESOURCE_TYPES lists the four resource types in the reference's order", () => {
  assertEquals([...RESOURCE_TYPES], ["record", "collection", "group", "template"]);
});

Deno.test("getResourceType() finds a type by name and refuses unknown names", () => {
  assertEquals(RESOURCE_TYPES.map((type) => getResourceType(type.toUpperCase())), [
    ...RESOURCE_TYPES,
  ]);
  const error = assertThrows(() => getResourceType("user"), InputError);
  assertStringIncludes(error.message, "Resource type 'user' does not exist");
});
