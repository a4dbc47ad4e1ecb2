// The layout of the progress bar's one line: what fits the terminal's width, dropped in order of
// least use (the bar's length, the label's end, the bar, the rate, the bytes; the label's verb
// last), so the line never wraps and every redraw replaces it in place.

/** The parts of a progress line, each already formatted. */
export interface ProgressParts {
  /** What is transferred (`Uploading data`); made safe by the caller. */
  label: string;
  /** Share done, 0 to 100; `undefined` when the total is unknown (no bar then). */
  percent?: number | undefined;
  /** Files done of all (`12/50 files`), for transfers of many files. */
  files?: string | undefined;
  /** Bytes done, of the total when known (`12.3 MB/300.0 MB`). */
  amount: string;
  /** Rate (`4.8 MB/s`), or empty. */
  rate: string;
  /** Time left (`ETA 1m 05s`), or empty. */
  eta: string;
}

const MAX_BAR = 30;
const MIN_BAR = 10;

/**
 * The progress line for a terminal `columns` wide: at most `columns - 3` characters, the widest
 * form that fits. The label's first word (the verb: `Uploading`) is never cut: before it goes,
 * the bar shrinks and goes, the rest of the label is cut, then the rate and the bytes go; only
 * a terminal too narrow for the verb and the compact numbers loses the label. A line that fills
 * the last column wraps on some terminals, and the terminal echoes Ctrl-C as `^C` behind the
 * bar: with the bar wrapped by it, clearing the bar's line would leave the bar on screen above
 * the `Interrupted` message.
 */
export function progressLine(parts: ProgressParts, columns: number): string {
  const room = Math.max(1, columns - 3);
  const percent = parts.percent === undefined ? undefined : `${parts.percent}%`.padStart(4);
  const join = (items: (string | undefined)[]) =>
    items.filter((item) => item !== undefined && item !== "").join(" ");
  const stats = join([parts.files, percent, parts.amount, parts.rate, parts.eta]);
  const label = parts.label;
  if (parts.percent !== undefined) {
    // `label [bar] stats`, the label cut (never its verb) to fit a bar of MIN_BAR when it must.
    const shown = fit(label, room - stats.length - 4 - MIN_BAR);
    if (shown !== undefined) {
      const width = Math.min(MAX_BAR, room - shown.length - 4 - stats.length);
      const filled = Math.round((parts.percent / 100) * width);
      return `${shown} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${stats}`;
    }
  }
  const compact = join([parts.files, percent?.trim(), parts.eta]) || parts.amount;
  for (const numbers of [stats, join([parts.files, percent, parts.amount, parts.eta]), compact]) {
    const shown = fit(label, room - numbers.length - 1);
    if (shown !== undefined) return join([shown, numbers]);
  }
  if (stats.length <= room) return stats;
  return cut(compact, room);
}

/**
 * `label` in at most `length` characters: whole, or cut after its first word (`Uploading da…`),
 * or that word alone; `undefined` when not even the first word fits.
 */
function fit(label: string, length: number): string | undefined {
  if (label.length <= length) return label;
  const verb = label.split(" ")[0] ?? label;
  if (length < verb.length) return undefined;
  return length >= verb.length + 3 ? cut(label, length) : verb;
}

function cut(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, Math.max(0, length - 1)).trimEnd()}…`;
}
