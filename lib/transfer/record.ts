/**
 * {@linkcode RepoRecord}: a record with everything, file transfers included.
 *
 * @module
 */

import { RecordResource } from "../resources/record.ts";

/** A record on the server: metadata, links, roles, and streamed file uploads, downloads and exports. */
export class RepoRecord extends RecordResource {}
