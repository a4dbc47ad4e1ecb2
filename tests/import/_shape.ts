// `key:type` of every entry, nested entries as `key:type(children)`: key order and types at a glance.
import type { Extra } from "../../lib/http/protocol.ts";

export function shape(extras: Extra[]): string {
  return extras.map((extra) => {
    const name = `${extra.key ?? ""}:${extra.type}`;
    return extra.type === "dict" || extra.type === "list"
      ? `${name}(${shape(extra.value as Extra[])})`
      : name;
  }).join(",");
}
