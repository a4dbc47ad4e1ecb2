// The layout of the progress bar's one line: what fits the terminal's width, dropped in order of
// least use (the bar's length, then the label's end, the bar, the label, the rate, the bytes), so
// the line never wraps and every redraw replaces it in place.

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
const MIN_LABEL = 8;

/**
 * The progress line for a terminal `columns` wide: at most `columns - 3` characters, the widest
 * form that fits. A line that fills the last column wraps on some terminals, and the terminal
 * echoes Ctrl-C as `^C` behind the bar: with the bar wrapped by it, clearing the bar's line would
 * leave the bar on screen above the `Interrupted` message.
 */
export function progressLine(parts: ProgressParts, columns: number): string {
  const room = Math.max(1, columns - 3);
  const percent = parts.percent === undefined ? undefined : `${parts.percent}%`.padStart(4);
  const join = (items: (string | undefined)[]) =>
    items.filter((item) => item !== undefined && item !== "").join(" ");
  const stats = join([parts.files, percent, parts.amount, parts.rate, parts.eta]);
  const label = parts.label;
  if (parts.percent !== undefined) {
    // `label [bar] stats`, the label cut to fit a bar of MIN_BAR when it must.
    const labelRoom = Math.min(label.length, room - stats.length - 4 - MIN_BAR);
    if (labelRoom >= Math.min(MIN_LABEL, label.length)) {
      const shown = cut(label, labelRoom);
      const width = Math.min(MAX_BAR, room - shown.length - 4 - stats.length);
      const filled = Math.round((parts.percent / 100) * width);
      return `${shown} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${stats}`;
    }
  }
  const labelRoom = Math.min(label.length, room - stats.length - 1);
  if (labelRoom >= Math.min(MIN_LABEL, label.length)) return `${cut(label, labelRoom)} ${stats}`;
  if (stats.length <= room) return stats;
  const withoutRate = join([parts.files, percent, parts.amount, parts.eta]);
  if (withoutRate.length <= room) return withoutRate;
  // Too narrow for the bytes: the compact form, files, share and time left.
  return cut(join([parts.files, percent?.trim(), parts.eta]) || parts.amount, room);
}

function cut(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, Math.max(0, length - 1)).trimEnd()}…`;
}
