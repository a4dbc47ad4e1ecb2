/**
 * Whether a string is a date by the reference client's rule: python-dateutil's `isoparse`
 * accepts it (client-reference §4.2), reproduced step by step, including its tolerances.
 *
 * @module
 */

/** Thrown inside the parser where dateutil raises; never leaves this module. */
class NotIso extends Error {}

function reject(): never {
  throw new NotIso();
}

/**
 * Python's `int()` of a (bytes) slice: optional ASCII whitespace around an optional sign and
 * digits, single underscores allowed between digits.
 */
function pyInt(slice: string): number {
  const match = /^[ \t\n\v\f\r]*([+-]?\d+(?:_\d+)*)[ \t\n\v\f\r]*$/.exec(slice);
  if (match === null) reject();
  return Number((match[1] as string).replaceAll("_", ""));
}

function isLeap(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysInMonth(year: number, month: number): number {
  return [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/** Days since 0001-01-01 (proleptic Gregorian), as Python's `date.toordinal() - 1`. */
function toOrdinal(year: number, month: number, day: number): number {
  const y = year - 1;
  let days = y * 365 + Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400);
  for (let m = 1; m < month; m++) days += daysInMonth(year, m);
  return days + day - 1;
}

/** The date `ordinal` days after 0001-01-01; rejects dates outside years 1–9999. */
function fromOrdinal(ordinal: number): [number, number, number] {
  if (ordinal < 0 || ordinal > toOrdinal(9999, 12, 31)) reject();
  let year = Math.floor(ordinal / 365.2425) + 1;
  while (toOrdinal(year, 1, 1) > ordinal) year--;
  while (year < 9999 && toOrdinal(year + 1, 1, 1) <= ordinal) year++;
  let rest = ordinal - toOrdinal(year, 1, 1);
  let month = 1;
  while (rest >= daysInMonth(year, month)) rest -= daysInMonth(year, month++);
  return [year, month, rest + 1];
}

/** Python's `date(year, month, day)` validation. */
function checkDate(year: number, month: number, day: number): void {
  if (year < 1 || year > 9999 || month < 1 || month > 12) reject();
  if (day < 1 || day > daysInMonth(year, month)) reject();
}

type Parsed = { date: [number, number, number]; pos: number };

function parseCommon(s: string): Parsed {
  const date: [number, number, number] = [1, 1, 1];
  if (s.length < 4) reject();
  date[0] = pyInt(s.slice(0, 4));
  let pos = 4;
  if (pos >= s.length) return { date, pos };
  const hasSep = s[pos] === "-";
  if (hasSep) pos++;
  if (s.length - pos < 2) reject();
  date[1] = pyInt(s.slice(pos, pos + 2));
  pos += 2;
  if (pos >= s.length) {
    if (hasSep) return { date, pos };
    reject();
  }
  if (hasSep) {
    if (s[pos] !== "-") reject();
    pos++;
  }
  if (s.length - pos < 2) reject();
  date[2] = pyInt(s.slice(pos, pos + 2));
  return { date, pos: pos + 2 };
}

function parseUncommon(s: string): Parsed {
  if (s.length < 4) reject();
  const year = pyInt(s.slice(0, 4));
  const hasSep = s[4] === "-";
  let pos = 4 + (hasSep ? 1 : 0);
  if (s.slice(pos, pos + 1) === "W") {
    pos++;
    const week = pyInt(s.slice(pos, pos + 2));
    pos += 2;
    let day = 1;
    if (s.length > pos) {
      if ((s[pos] === "-") !== hasSep) reject();
      if (hasSep) pos++;
      day = pyInt(s.slice(pos, pos + 1));
      pos++;
    }
    if (!(week > 0 && week < 54) || !(day > 0 && day < 8)) reject();
    checkDate(year, 1, 4);
    const jan4 = toOrdinal(year, 1, 4);
    const isoWeekday = (jan4 % 7) + 1; // 0001-01-01 is a Monday
    const week1 = jan4 - (isoWeekday - 1);
    return { date: fromOrdinal(week1 + (week - 1) * 7 + (day - 1)), pos };
  }
  if (s.length - pos < 3) reject();
  const ordinalDay = pyInt(s.slice(pos, pos + 3));
  pos += 3;
  checkDate(year, 1, 1);
  if (ordinalDay < 1 || ordinalDay > (isLeap(year) ? 366 : 365)) reject();
  return { date: fromOrdinal(toOrdinal(year, 1, 1) + ordinalDay - 1), pos };
}

/** dateutil's `_parse_tzstr`: the offset in minutes. */
function parseZone(zone: string): number {
  if (zone === "Z" || zone === "z") return 0;
  if (![3, 5, 6].includes(zone.length)) reject();
  if (zone[0] !== "-" && zone[0] !== "+") reject();
  const hours = pyInt(zone.slice(1, 3));
  const minutes = zone.length === 3 ? 0 : pyInt(zone.slice(zone[3] === ":" ? 4 : 3));
  if (hours === 0 && minutes === 0) return 0;
  if (minutes > 59 || hours > 23) reject();
  return (zone[0] === "-" ? -1 : 1) * (hours * 60 + minutes);
}

/** dateutil's `_parse_isotime`: [hour, minute, second, microsecond] and the zone offset. */
function parseTime(s: string): { parts: number[]; offset: number | null } {
  const parts = [0, 0, 0, 0];
  let offset: number | null = null;
  let pos = 0;
  let comp = -1;
  if (s.length < 2) reject();
  let hasSep = false;
  while (pos < s.length && comp < 5) {
    comp++;
    if ("-+Zz".includes(s[pos] as string)) {
      offset = parseZone(s.slice(pos));
      pos = s.length;
      break;
    }
    if (comp === 1 && s[pos] === ":") {
      hasSep = true;
      pos++;
    } else if (comp === 2 && hasSep) {
      if (s[pos] !== ":") reject();
      pos++;
    }
    if (comp < 3) {
      parts[comp] = pyInt(s.slice(pos, pos + 2));
      pos += 2;
    } else if (comp === 3) {
      const fraction = /^[.,](\d+)/.exec(s.slice(pos));
      if (fraction === null) continue;
      const digits = (fraction[1] as string).slice(0, 6);
      parts[3] = Number(digits) * 10 ** (6 - digits.length);
      pos += fraction[0].length;
    }
  }
  if (pos < s.length) reject();
  if (parts[0] === 24 && parts.slice(1).some((part) => part !== 0)) reject();
  return { parts, offset };
}

const pad = (value: number, width = 2) => String(value).padStart(width, "0");

/**
 * Parses text the way python-dateutil's `isoparse` does and returns what Python's
 * `isoformat()` prints for the result (`YYYY-MM-DDTHH:MM:SS[.ffffff][±HH:MM]`), or `undefined`
 * when `isoparse` rejects the text. The accepted forms are those of {@link isIsoDate}, which shows
 * both.
 */
export function normalizeIsoDate(text: string): string | undefined {
  // deno-lint-ignore no-control-regex
  if (!/^[\x00-\x7f]*$/.test(text)) return undefined;
  try {
    let parsed: Parsed;
    try {
      parsed = parseCommon(text);
    } catch (error) {
      if (!(error instanceof NotIso)) throw error;
      parsed = parseUncommon(text);
    }
    let [year, month, day] = parsed.date;
    let time = { parts: [0, 0, 0, 0], offset: null as number | null };
    if (text.length > parsed.pos) time = parseTime(text.slice(parsed.pos + 1));
    checkDate(year, month, day);
    const [hour = 0, minute = 0, second = 0, micro = 0] = time.parts;
    if (hour === 24) {
      [year, month, day] = fromOrdinal(toOrdinal(year, month, day) + 1);
    } else if (hour < 0 || hour > 23) reject();
    if (minute < 0 || minute > 59 || second < 0 || second > 59) reject();
    let result = `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour % 24)}:${pad(minute)}:` +
      pad(second) + (micro === 0 ? "" : `.${pad(micro, 6)}`);
    if (time.offset !== null) {
      const offset = Math.abs(time.offset);
      result += `${time.offset < 0 ? "-" : "+"}${pad(Math.floor(offset / 60))}:${pad(offset % 60)}`;
    }
    return result;
  } catch (error) {
    if (error instanceof NotIso) return undefined;
    throw error;
  }
}

/**
 * Whether `isoparse` of python-dateutil accepts the text: ASCII only; a date `YYYY`, `YYYY-MM`,
 * `YYYYMMDD`, `YYYY-MM-DD`, week dates `YYYY-Www[-D]`/`YYYYWww[D]`, ordinal dates
 * `YYYY-DDD`/`YYYYDDD`; after a full date any single character and a time `hh[:mm[:ss[.ffffff]]]`
 * (or without colons) with an optional zone `Z`, `±HH`, `±HHMM`, `±HH:MM`; `24:00` is accepted as
 * the next midnight. Fields are validated as a real date and time.
 *
 * @example Usage
 * ```ts
 * import { isIsoDate, normalizeIsoDate } from "./is_iso_date.ts";
 * console.log(isIsoDate("2020-01-01x10:30:00,5+01:00")); // true
 * console.log(isIsoDate("2020-02-30")); // false
 * console.log(normalizeIsoDate("2020-W01-3")); // "2020-01-01T00:00:00"
 * console.log(normalizeIsoDate("20200101T2400Z")); // "2020-01-02T00:00:00+00:00"
 * ```
 */
export function isIsoDate(text: string): boolean {
  return normalizeIsoDate(text) !== undefined;
}
