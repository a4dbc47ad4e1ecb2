// The one sanitiser for text the CLI prints for humans: every message line (`Output.info`,
// `warning`, `error`, `debug`, the library's log lines) passes through it, so server text (titles,
// identifiers, file names, error messages) cannot move the cursor, retitle the terminal, recolour
// it or forge lines. Commands call it on server text they build lines from, and the error
// messages on server text set inside a sentence (`fold`). JSON output (`--json`, `--jsonl`) and
// piped data (`-p`, `-P`) are not touched: JSON escaping protects the former, the latter stays
// byte-exact.

// C0 controls except TAB (this includes ESC, BEL, CR and LF), DEL, C1 controls (CSI U+009B, OSC
// U+009D …), the Unicode line and paragraph separators and the bidirectional overrides/isolates
// that reorder what is shown.
// deno-lint-ignore no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

// What `fold` turns into one space: a run of C0 controls (TAB, CR and LF included) and DEL.
// deno-lint-ignore no-control-regex -- matching control characters is the point
const FOLDED = /[\u0000-\u001f\u007f]+/g;

/** Options of {@linkcode terminalLine}. */
export interface TerminalLineOptions {
  /**
   * For server text set inside a sentence (field errors, a value, a path): each run of C0
   * controls and DEL becomes one space and the ends are trimmed, before the rest is made safe.
   */
  fold?: boolean;
  /** The longest result; longer text is cut there and ends with `…`. */
  maxLength?: number;
}

/**
 * `text` as one safe terminal line: each control character (ESC of an escape sequence, BEL, CR,
 * LF, C1, bidi override) becomes `?`, so the rest of a hostile sequence stays visible as plain
 * text (`EVIL?]0;pwned?`). With `fold`, runs of C0 controls become one space first (see
 * {@linkcode TerminalLineOptions}).
 */
export function terminalLine(text: unknown, options: TerminalLineOptions = {}): string {
  let line = String(text ?? "");
  if (options.fold === true) line = line.replace(FOLDED, " ").trim();
  line = line.replace(UNSAFE, "?");
  const { maxLength } = options;
  // Each character made safe is one UTF-16 unit, as is its `?`: the cut falls where it would
  // without the replacement.
  return maxLength !== undefined && line.length > maxLength ? `${line.slice(0, maxLength)}…` : line;
}

/**
 * A safe line broken at spaces into rows of at most `width` characters, so a terminal does not
 * wrap it in the middle of a word; a word longer than a row (a long path) keeps a row of its own
 * and the terminal wraps it. The rows are joined with line breaks.
 */
export function wrapWords(line: string, width: number): string {
  if (line.length <= width || width < 20) return line;
  const rows: string[] = [];
  let row = "";
  for (const word of line.split(" ")) {
    if (row !== "" && row.length + 1 + word.length > width) {
      rows.push(row);
      row = word;
    } else row = row === "" ? word : `${row} ${word}`;
  }
  rows.push(row);
  return rows.join("\n");
}
