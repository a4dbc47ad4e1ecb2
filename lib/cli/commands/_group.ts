// Creates a command group (gets `--commands` and shows its help when called without a command).

import { Command } from "@commander-js/extra-typings";
import { markGroup } from "../_tree.ts";

/** A new group named `name`. */
export function createGroup(name: string, description: string): Command {
  const group = new Command(name).description(description);
  markGroup(group);
  return group;
}
