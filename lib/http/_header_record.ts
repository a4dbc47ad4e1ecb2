// Request headers as the transport hands them to a fetch function: a plain record.

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// What ends a line, and what is no byte (a ByteString holds code units up to 0xFF only).
const FORBIDDEN_IN_VALUE = /[\0\r\n\u0100-\uffff]/;
// HTTP whitespace, which `Headers` strips from both ends of a value.
const SURROUNDING_BLANKS = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/**
 * Request headers as a plain record with lower-case names, checked as `new Headers()` checks
 * them (a name is an HTTP token; a value loses surrounding HTTP whitespace, then holds no NUL,
 * CR, LF nor code unit above 0xFF), so that no value can end a line in a request head (the
 * large-PUT sender writes its head itself). Deno's fetch converts a record faster than a
 * `Headers` object.
 *
 * @param init Headers as a caller passes them (`Headers`, pairs or a record).
 * @returns A new record the caller may change.
 * @throws {TypeError} For a name or value `new Headers()` refuses.
 */
export function headerRecord(init: HeadersInit | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  if (init === undefined) return record;
  if (init instanceof Headers || Array.isArray(init)) {
    new Headers(init).forEach((value, name) => record[name] = value);
    return record;
  }
  for (const [name, raw] of Object.entries(init)) {
    const value = String(raw).replace(SURROUNDING_BLANKS, "");
    if (!TOKEN.test(name)) throw new TypeError(`Invalid header name: '${name}'`);
    if (FORBIDDEN_IN_VALUE.test(value)) throw new TypeError(`Invalid value of header '${name}'`);
    const key = name.toLowerCase();
    // As `Headers` does: a name given twice (in two spellings) keeps both values.
    record[key] = key in record ? `${record[key]}, ${value}` : value;
  }
  return record;
}
