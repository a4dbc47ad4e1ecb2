// 16 CLI processes upload 30–60 MB files to one record under a 5 requests/second limit: every
// file arrives byte-identical.
import { assertEquals } from "../_assert.ts";
import { rateLimitedUploads } from "../../scripts/rate_limited_uploads.ts";

Deno.test("16 concurrent CLI uploads under a 5 requests/second limit all arrive byte-identical", async () => {
  const result = await rateLimitedUploads({ rate: 5, processes: 16 });
  assertEquals(result.failures, []);
  assertEquals({ identical: result.identical, stored: result.stored }, {
    identical: 16,
    stored: 16,
  });
  // The limit was really hit: the test exercises the retries.
  assertEquals(result.limited > 0, true, "no request was rate limited");
});
