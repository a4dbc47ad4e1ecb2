// What the CLI tests of the watchers share: a child's stdout read line by line, and a matcher of
// the JSON events of `--watch --json`.

/** Reads a child's stdout line by line. */
export class Lines {
  #reader: ReadableStreamDefaultReader<string>;
  #buffer = "";
  readonly seen: string[] = [];

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** The next line that matches; fails when the stream ends first. */
  async next(match: (line: string) => boolean): Promise<string> {
    for (;;) {
      const end = this.#buffer.indexOf("\n");
      if (end !== -1) {
        const line = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 1);
        this.seen.push(line);
        if (match(line)) return line;
        continue;
      }
      const { value, done } = await this.#reader.read();
      if (done) throw new Error(`stdout ended; lines: ${this.seen.join(" | ")}`);
      this.#buffer += value;
    }
  }

  /** The rest of the stream. */
  async rest(): Promise<string> {
    let text = this.#buffer;
    for (;;) {
      const { value, done } = await this.#reader.read();
      if (done) return text;
      text += value;
    }
  }
}

export type Event = { type: string; name?: string; size?: number; [key: string]: unknown };

/** Matches a JSON event line of that type (and file name). */
export const event = (type: string, name?: string) => (line: string) => {
  const parsed = JSON.parse(line) as Event;
  return parsed.type === type && (name === undefined || parsed.name === name);
};
