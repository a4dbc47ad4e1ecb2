// Lays `--help` out for a terminal width. Commander renders every help unwrapped (an unlimited
// help width), `_help.json` caches that text, and both the cached and the live help pass through
// `layoutHelp()` with the width of the terminal it is printed on: one layout, any width.

/** Width help is laid out to when neither `COLUMNS` nor a terminal says otherwise. */
export const DEFAULT_HELP_WIDTH = 80;

/** Narrowest layout: below it, descriptions would wrap after every word. */
const MIN_HELP_WIDTH = 40;
/** Columns a description keeps before long terms move their description to the next line. */
const DESCRIPTION_ROOM = 40;
const ITEM_INDENT = "  ";
const SPACER = 2;

/**
 * The width `--help` is laid out to: `COLUMNS` when the process may read it (never a prompt), else
 * the terminal's width, else 80; never below 40.
 */
export function helpWidth(): number {
  const columns = envColumns() ?? consoleColumns() ?? DEFAULT_HELP_WIDTH;
  return Math.max(MIN_HELP_WIDTH, columns);
}

/**
 * The width for a run with these options: `helpWidth` when given; else, when the help goes to a
 * writer of the caller's (tests, embedding) rather than to the process's stdout, 80 whatever the
 * terminal; else {@linkcode helpWidth}.
 */
export function helpWidthOf(options: { helpWidth?: number | undefined; stdout?: unknown }): number {
  return options.helpWidth ?? (options.stdout === undefined ? helpWidth() : DEFAULT_HELP_WIDTH);
}

function envColumns(): number | undefined {
  try {
    if (Deno.permissions.querySync({ name: "env", variable: "COLUMNS" }).state !== "granted") {
      return undefined;
    }
    const value = Deno.env.get("COLUMNS")?.trim() ?? "";
    return /^[1-9]\d*$/.test(value) ? Number(value) : undefined;
  } catch {
    return undefined;
  }
}

function consoleColumns(): number | undefined {
  try {
    return Deno.consoleSize().columns || undefined;
  } catch {
    return undefined; // no terminal on stdin, stdout or stderr
  }
}

/** `  term  description` of an option, command or argument row, as commander writes it. */
const ITEM = /^ {2}(\S(?:.*?\S)?)(?: {2,}(\S.*))?$/;
/** An example with a trailing comment: `  $ repo-apy … -p   # prints the id`. */
const COMMENTED = /^(\s+)(\S.*?\S)\s{2,}(#\s.*)$/;

/**
 * Lays out help rendered without wrapping for `width` columns: option and command rows in two
 * columns with wrapped descriptions (a term too long for the first column puts its description
 * on the next line), paragraphs re-flowed, and an example too wide for one line gets its comment
 * on a line of its own below the command. `Infinity` returns the text as it is.
 *
 * @param text Help as commander renders it with an unlimited help width.
 * @returns The help, every line at most `width` wide except single words and commands that are
 *   wider themselves.
 */
export function layoutHelp(text: string, width: number): string {
  if (!Number.isFinite(width)) return text;
  const lines = text.split("\n");
  const items = itemLines(lines);
  const termWidth = Math.max(0, ...[...items].map((index) => ITEM.exec(lines[index]!)![1]!.length));
  const descriptionAt = ITEM_INDENT.length +
    Math.min(termWidth, Math.max(8, width - DESCRIPTION_ROOM - ITEM_INDENT.length - SPACER)) +
    SPACER;
  const out: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (items.has(index)) {
      out.push(...layoutItem(line, descriptionAt, width));
    } else if (line !== "" && !line.startsWith(" ")) {
      // A paragraph: this line and the unindented lines right after it (hand-wrapped text).
      let paragraph = line;
      while (!paragraph.endsWith(":") && isParagraphLine(lines[index + 1])) {
        paragraph += ` ${lines[++index]!}`;
      }
      out.push(...wrap(paragraph, width));
    } else {
      const example = line.length > width ? COMMENTED.exec(line) : null;
      out.push(
        ...(example === null
          ? [line]
          : [`${example[1]}${example[2]}`, `${example[1]}    ${example[3]}`]),
      );
    }
  }
  return out.join("\n");
}

function isParagraphLine(line: string | undefined): boolean {
  return line !== undefined && line !== "" && !line.startsWith(" ") && !line.endsWith(":");
}

/** Indexes of the rows in sections that commander writes (`Options:`, `Commands:`, …). */
function itemLines(lines: readonly string[]): Set<number> {
  const items = new Set<number>();
  let inSection = false;
  lines.forEach((line, index) => {
    if (line === "" || !line.startsWith(" ")) {
      inSection = line.endsWith(":") && line !== "Examples:";
    } else if (inSection && ITEM.test(line)) {
      items.add(index);
    }
  });
  return items;
}

function layoutItem(line: string, descriptionAt: number, width: number): string[] {
  const [, term, description] = ITEM.exec(line)!;
  const head = `${ITEM_INDENT}${term}`;
  if (description === undefined) return [head];
  const indent = " ".repeat(descriptionAt);
  const wrapped = wrap(description, width - descriptionAt).map((part) => `${indent}${part}`);
  if (head.length + SPACER > descriptionAt) return [head, ...wrapped];
  return [`${head.padEnd(descriptionAt)}${wrapped[0]!.slice(descriptionAt)}`, ...wrapped.slice(1)];
}

/** Words of `text` in lines of at most `width` (a longer word keeps a line of its own). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(/\s+/).filter((part) => part !== "")) {
    if (current !== "" && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else {
      current = current === "" ? word : `${current} ${word}`;
    }
  }
  lines.push(current);
  return lines;
}
