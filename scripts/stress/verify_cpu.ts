// deno-lint-ignore-file no-console -- a script that reports to the terminal
/**
 * What verification costs the client, in CPU seconds per GB, on loopback: a file is uploaded and
 * downloaded by a separate client process (measured with `/usr/bin/time`) against the local
 * server in this process, and the download once more with the checksum left out (nothing
 * verified); the difference is the verification. The MD5 pass alone (`Checksum`, the one path
 * that uploads and downloads use) is timed in process too.
 *
 * Usage: `deno run -A scripts/stress/verify_cpu.ts [--size 200000000] [--repeat 3]`
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import process from "node:process";
import { startServer } from "../../lib/testing/mod.ts";
import { Transport } from "../../lib/http/transport.ts";
import { RepoRecord } from "../../lib/model/record.ts";
import { openResource } from "../../lib/resources/resource.ts";
import { Checksum } from "../../lib/transfer/_chunks.ts";

const { values } = parseArgs({
  options: {
    size: { type: "string", default: "200000000" },
    repeat: { type: "string", default: "3" },
    client: { type: "string" },
    host: { type: "string" },
    pat: { type: "string" },
    record: { type: "string" },
    path: { type: "string" },
    file: { type: "string" },
  },
});

if (values.client !== undefined) {
  // Client mode: one transfer, then exit.
  await using transport = new Transport({
    settings: { host: values.host!, pat: values.pat!, timeout: 600 },
  });
  const record = await openResource(transport, RepoRecord, { id: Number(values.record) });
  if (values.client === "upload") {
    await record.uploadFile(values.path!, { force: true });
  } else {
    const file = await record.getFileInfo(values.file!);
    const unverified = values.client === "download-unverified";
    await record.downloadFile(file.id, values.path!, {
      force: true,
      file: unverified ? { ...file, checksum: null } : file,
    });
  }
  Deno.exit(0);
}

const SIZE = Number(values.size);
const REPEAT = Number(values.repeat);
const SELF = fileURLToPath(import.meta.url);

async function timed(args: string[]): Promise<number> {
  const out = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "%U %S", Deno.execPath(), "run", "-A", SELF, ...args],
    stdout: "null",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stderr).trim().split("\n").at(-1) ?? "";
  if (!out.success) throw new Error(`client failed: ${text}`);
  const [user, sys] = text.split(" ").map(Number);
  return user! + sys!;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

await using server = await startServer();
await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
const record = await openResource(transport, RepoRecord, {
  identifier: "verify-cpu",
  create: true,
});
const dir = await Deno.makeTempDir({ prefix: "repo-apy-verify-" });
try {
  const source = `${dir}/source.bin`;
  {
    using file = await Deno.open(source, { write: true, create: true });
    const piece = crypto.getRandomValues(new Uint8Array(1 << 16));
    for (let left = SIZE; left > 0; left -= piece.byteLength) {
      await file.write(piece.subarray(0, Math.min(left, piece.byteLength)));
    }
  }
  const common = ["--host", server.url, "--pat", server.pat, "--record", String(record.id)];
  const rows: Record<string, number[]> = { upload: [], download: [], "download-unverified": [] };
  for (let i = 0; i < REPEAT; i++) {
    rows.upload!.push(await timed(["--client", "upload", ...common, "--path", source]));
    const file = await record.getFileByName("source.bin");
    for (const mode of ["download", "download-unverified"]) {
      rows[mode]!.push(
        await timed(["--client", mode, ...common, "--file", file.id, "--path", `${dir}/out.bin`]),
      );
    }
  }
  // The MD5 pass alone, in this process.
  const md5: number[] = [];
  const data = await Deno.readFile(source);
  for (const kind of ["md5", "composite"] as const) {
    for (let i = 0; i < REPEAT; i++) {
      const before = process.cpuUsage();
      const checksum = new Checksum(kind);
      for (let at = 0; at < data.byteLength; at += 1 << 20) {
        checksum.update(data.subarray(at, at + (1 << 20)));
      }
      checksum.result();
      const used = process.cpuUsage(before);
      md5.push((used.user + used.system) / 1e6);
    }
  }
  const gb = SIZE / 1e9;
  const perGb = (s: number) => (s / gb).toFixed(2);
  console.log(`${SIZE} bytes, median of ${REPEAT}, client CPU s (user+sys) and per GB:`);
  for (const [name, samples] of Object.entries(rows)) {
    console.log(
      `  ${name.padEnd(22)} ${median(samples).toFixed(2)} s  ${perGb(median(samples))} s/GB`,
    );
  }
  const verification = median(rows.download!) - median(rows["download-unverified"]!);
  console.log(`  download verification  ${verification.toFixed(2)} s  ${perGb(verification)} s/GB`);
  console.log(`  MD5 pass alone         ${median(md5).toFixed(2)} s  ${perGb(median(md5))} s/GB`);
} finally {
  await Deno.remove(dir, { recursive: true });
}
