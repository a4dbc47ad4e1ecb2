// A local registry that speaks JSR's protocol, fed by the real `deno publish`: it takes the
// package upload (the files `deno publish` would send to jsr.io, specifiers unfurled) and serves
// them as JSR serves a package (`meta.json`, `<version>_meta.json` with each file's size and
// checksum, the files). Deno reads its addresses from `JSR_URL` and `JSR_API_URL`.

/** A running registry; `await using` stops it. */
export interface JsrRegistry extends AsyncDisposable {
  /** The environment that points Deno at it (`JSR_URL`, `JSR_API_URL`). */
  env: { JSR_URL: string; JSR_API_URL: string };
  /** `scope/name@version` of each package published so far. */
  published: string[];
}

interface Package {
  version: string;
  exports: Record<string, string>;
  files: Map<string, Uint8Array<ArrayBuffer>>;
}

/** Starts the registry on 127.0.0.1 (a free port). */
export function startJsrRegistry(): JsrRegistry {
  const packages = new Map<string, Package>();
  const published: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const path = decodeURIComponent(new URL(request.url).pathname);
    const upload = /^\/api\/scopes\/([^/]+)\/packages\/([^/]+)\/versions\/([^/]+)$/.exec(path);
    if (upload !== null && request.method === "POST") {
      const [, scope, name, version] = upload as unknown as [string, string, string, string];
      const files = await untar(request.body!.pipeThrough(new DecompressionStream("gzip")));
      const config = JSON.parse(new TextDecoder().decode(files.get("/deno.json"))) as {
        exports: Record<string, string> | string;
      };
      const exports = typeof config.exports === "string" ? { ".": config.exports } : config.exports;
      packages.set(`@${scope}/${name}`, { version, exports, files });
      published.push(`@${scope}/${name}@${version}`);
      return Response.json({ id: "1", status: "success", error: null });
    }
    if (/^\/api\/scopes\/[^/]+\/packages\/[^/]+$/.test(path)) return Response.json({});
    if (path.startsWith("/api/publish_status/")) {
      return Response.json({ id: "1", status: "success", error: null });
    }
    const served = /^\/(@[^/]+\/[^/]+)\/(.*)$/.exec(path);
    const pkg = served === null ? undefined : packages.get(served[1]!);
    if (served === null || pkg === undefined) return new Response("not found", { status: 404 });
    const rest = served[2]!;
    if (rest === "meta.json") {
      const [scope, name] = served[1]!.slice(1).split("/");
      return Response.json({ scope, name, latest: pkg.version, versions: { [pkg.version]: {} } });
    }
    if (rest === `${pkg.version}_meta.json`) {
      const manifest: Record<string, { size: number; checksum: string }> = {};
      for (const [file, bytes] of pkg.files) {
        const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
        const hex = [...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("");
        manifest[file] = { size: bytes.length, checksum: `sha256-${hex}` };
      }
      return Response.json({ manifest, exports: pkg.exports });
    }
    const file = rest.startsWith(`${pkg.version}/`)
      ? pkg.files.get(rest.slice(pkg.version.length))
      : undefined;
    return file === undefined
      ? new Response("not found", { status: 404 })
      : new Response(file.slice(), { headers: { "content-type": "application/octet-stream" } });
  });
  const origin = `http://127.0.0.1:${server.addr.port}/`;
  return {
    env: { JSR_URL: origin, JSR_API_URL: `${origin}api/` },
    published,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

/** The regular files of a tar stream by their path (`/lib/cli/kit.ts`). */
async function untar(
  stream: ReadableStream<Uint8Array>,
): Promise<Map<string, Uint8Array<ArrayBuffer>>> {
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  const text = (start: number, length: number) =>
    new TextDecoder().decode(bytes.subarray(start, start + length)).replace(/\0.*$/s, "");
  const files = new Map<string, Uint8Array<ArrayBuffer>>();
  for (let offset = 0; offset + 512 <= bytes.length;) {
    const name = text(offset, 100);
    if (name === "") break;
    const size = parseInt(text(offset + 124, 12).trim() || "0", 8);
    const type = text(offset + 156, 1);
    const prefix = text(offset + 345, 155);
    const path = `/${prefix === "" ? "" : `${prefix}/`}${name}`.replace(/^\/+/, "/");
    if (type === "0" || type === "") {
      files.set(path, bytes.slice(offset + 512, offset + 512 + size));
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}
