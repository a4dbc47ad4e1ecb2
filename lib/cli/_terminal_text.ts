// The one sanitiser for text the CLI prints for humans: every message line (`Output.info`,
// `warning`, `error`, `debug`, the library's log lines) passes through it, so server text (titles,
// identifiers, file names, error messages) cannot move the cursor, retitle the terminal, recolour
// it or forge lines. JSON output (`--json`, `--jsonl`) and piped data (`-p`, `-P`) are not
// touched: JSON escaping protects the former, the latter stays byte-exact.

// C0 controls except TAB (this includes ESC, BEL, CR and LF), DEL, C1 controls (CSI U+009B, OSC
// U+009D …), the Unicode line and paragraph separators and the bidirectional overrides/isolates
// that reorder what is shown.
// deno-lint-ignore no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` as one safe terminal line: each control character (ESC of an escape sequence, BEL, CR,
 * LF, C1, bidi override) becomes `?`, so the rest of a hostile sequence stays visible as plain
 * text (`EVIL?]0;pwned?`).
 */
export function terminalLine(text: unknown): string {
  return String(text ?? "").replace(UNSAFE, "?");
}
