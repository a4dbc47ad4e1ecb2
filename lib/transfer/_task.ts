/**
 * Waiting for the server's merge task of a finished chunked upload.
 *
 * @module
 */

import type { FileJson, UploadJson } from "../http/protocol.ts";
import { sleep } from "../http/retry.ts";
import type { Transport } from "../http/transport.ts";
import { UploadError } from "./errors.ts";
import { checkFile, UPLOAD_ANSWER } from "./_answers.ts";

const POLL_START_MS = 100;
/** Growth of the delay per poll: gentle, so a merge that just ended is seen soon after. */
const POLL_GROWTH = 1.5;
const POLL_MAX_MS = 1000;

/**
 * Polls a finished upload with growing delays (100 ms, growing by half up to 1 s) until its merge
 * task produced the file, failed, or the deadline passed: gentle growth sees a merge that just
 * ended soon after, and a poll a second is little load for a server.
 *
 * @param upload The upload as `finish` (or a GET) returned it.
 * @returns The file the task produced (not yet verified), and the checksum of the data the
 * upload stored when the server reports it.
 * @throws {UploadError} With `task` when the task failed; without it on the deadline.
 */
export async function pollTask(
  transport: Transport,
  upload: UploadJson,
  options: { pollDeadlineMs: number; signal?: AbortSignal | undefined },
): Promise<{ file: FileJson; checksum: string | undefined }> {
  const self = upload._links.self;
  if (self === undefined) {
    throw new UploadError(
      `The server's upload of '${upload.name}' has no 'self' link: the server may use an unsupported upload API`,
      { upload },
    );
  }
  const deadline = Date.now() + options.pollDeadlineMs;
  let delay = POLL_START_MS;
  let current = upload;
  for (;;) {
    const task = current._meta?.task;
    if (task?.file) {
      const file = checkFile(task.file, `the merge task of the upload of '${upload.name}'`);
      const checksum = typeof current.checksum === "string"
        ? current.checksum.toLowerCase()
        : undefined;
      return { file, checksum };
    }
    if (
      task?.error !== undefined || (task && /^(failure|failed|error|revoked)$/i.test(task.state))
    ) {
      throw new UploadError(
        `The server could not assemble '${upload.name}' (${
          task.error ?? task.state
        }): upload the file again`,
        { upload: current, task },
      );
    }
    if (current.state === "inactive" && !task) {
      throw new UploadError(
        `The upload of '${upload.name}' ended without a file: upload the file again`,
        { upload: current },
      );
    }
    if (Date.now() + delay > deadline) {
      throw new UploadError(
        `The server is still assembling '${upload.name}' after ${
          Math.round(options.pollDeadlineMs / 1000)
        } s: check the record's files later, or raise pollDeadlineMs`,
        { upload: current, ...(task ? { task } : {}) },
      );
    }
    await sleep(delay, options.signal);
    delay = Math.min(POLL_MAX_MS, Math.round(delay * POLL_GROWTH));
    current = await transport.jsonObject<UploadJson>("GET", self, {
      ...UPLOAD_ANSWER,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }
}
