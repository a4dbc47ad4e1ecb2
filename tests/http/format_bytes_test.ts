import { assertEquals } from "../_assert.ts";
import { formatBytes } from "../../lib/http/format_bytes.ts";
import { formatBytes as cliFormatBytes } from "../../lib/cli/kit.ts";

Deno.test("formatBytes() keeps one decimal, the CLI's sizes and rates", () => {
  assertEquals(formatBytes(0), "0 B");
  assertEquals(formatBytes(999), "999 B");
  assertEquals(formatBytes(1_500_000), "1.5 MB");
  assertEquals(formatBytes(20_000_000), "20.0 MB");
  assertEquals(formatBytes(3_000_000_000_000_000), "3000.0 TB");
  assertEquals(cliFormatBytes, formatBytes);
});

Deno.test("formatBytes() with prose: no '.0', and 'bytes' below 1 kB", () => {
  assertEquals(formatBytes(512, { prose: true }), "512 bytes");
  assertEquals(formatBytes(1_000, { prose: true }), "1 kB");
  assertEquals(formatBytes(1_000_000, { prose: true }), "1 MB");
  assertEquals(formatBytes(67_108_864, { prose: true }), "67.1 MB");
  assertEquals(formatBytes(2_000_000_000, { prose: true }), "2 GB");
});
