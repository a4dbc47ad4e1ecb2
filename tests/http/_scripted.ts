// A server that writes exact bytes, for answers no real server library would send.

const encode = (text: string) => new TextEncoder().encode(text);

/** What the scripted server saw: the request head, and whether the client closed first. */
export interface Seen {
  head: string;
  clientClosed: Promise<boolean>;
}

/**
 * A server that answers one connection with `pieces` (each its own write) and closes unless
 * `hold` is set (then it keeps the connection open until the client closes it).
 */
export function scripted(
  pieces: (string | Uint8Array)[],
  options: { hold?: boolean } = {},
): { url: URL; seen: Promise<Seen>; close(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const seen = (async (): Promise<Seen> => {
    const conn = await listener.accept();
    let head = "";
    const buffer = new Uint8Array(65536);
    while (!head.includes("\r\n\r\n")) {
      const read = await conn.read(buffer);
      if (read === null) break;
      head += new TextDecoder().decode(buffer.subarray(0, read));
    }
    for (const piece of pieces) {
      await conn.write(typeof piece === "string" ? encode(piece) : piece).catch(() => 0);
    }
    const clientClosed = (async () => {
      if (!options.hold) {
        conn.close();
        return false;
      }
      try {
        while ((await conn.read(buffer)) !== null);
      } catch { /* reset */ }
      conn.close();
      return true;
    })();
    return { head, clientClosed };
  })();
  return {
    url: new URL(`http://127.0.0.1:${listener.addr.port}/file`),
    seen,
    close: () => listener.close(),
  };
}
