// Trees drawn as text (`collections show-info -s`): box-drawing branches where the terminal can
// show them, ASCII otherwise.

/** One node of a drawn tree. */
export interface TextTreeNode {
  /** The node's line (made safe by the caller). */
  label: string;
  /** Its children, drawn below it. */
  children?: TextTreeNode[];
}

const UNICODE = { branch: "├── ", last: "└── ", pipe: "│   ", space: "    " };
const ASCII = { branch: "|-- ", last: "`-- ", pipe: "|   ", space: "    " };

/**
 * The lines of `root` and its descendants: `root`'s label, then each child behind `├── ` (the
 * last behind `└── `), its own children indented under `│   `; with `ascii`, `|-- `, `` `-- ``
 * and `|   `.
 */
export function treeLines(root: TextTreeNode, options: { ascii?: boolean } = {}): string[] {
  const glyphs = options.ascii === true ? ASCII : UNICODE;
  const lines = [root.label];
  const walk = (nodes: TextTreeNode[], prefix: string) => {
    nodes.forEach((node, index) => {
      const last = index === nodes.length - 1;
      lines.push(`${prefix}${last ? glyphs.last : glyphs.branch}${node.label}`);
      walk(node.children ?? [], `${prefix}${last ? glyphs.space : glyphs.pipe}`);
    });
  };
  walk(root.children ?? [], "");
  return lines;
}

/**
 * Whether the terminal can show box-drawing characters: not with `TERM=dumb`; else the locale
 * (`LC_ALL`, `LC_CTYPE`, then `LANG`, the first one set) must name UTF-8; Windows can. `env`
 * reads a variable (default: the process's, where `--allow-env` grants it; an ungranted one
 * counts as unset); with none set, UTF-8 is assumed (today's terminals).
 */
export function canDrawUnicode(env: (name: string) => string | undefined = grantedEnv): boolean {
  if (Deno.build.os === "windows") return true;
  if (env("TERM") === "dumb") return false;
  for (const name of ["LC_ALL", "LC_CTYPE", "LANG"]) {
    const value = env(name);
    if (value === undefined || value === "") continue;
    return /utf-?8/i.test(value);
  }
  return true;
}

function grantedEnv(name: string): string | undefined {
  if (Deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") {
    return undefined;
  }
  return Deno.env.get(name);
}
