/**
 * All routes of the local repository server, in priority order.
 *
 * @module
 */
import { collectionRoutes } from "./_collections.ts";
import { exportRoutes } from "./_exports.ts";
import { fileRoutes } from "./_files.ts";
import { groupRoutes } from "./_groups.ts";
import { linkRoutes } from "./_links.ts";
import { miscRoutes } from "./_misc.ts";
import { recordRoutes } from "./_records.ts";
import { revisionRoutes } from "./_revisions.ts";
import { roleRoutes } from "./_roles.ts";
import type { Route } from "./_router.ts";
import { templateExportRoutes } from "./_template_exports.ts";
import { templateRoutes } from "./_templates.ts";
import { uploadRoutes } from "./_uploads.ts";
import { userRoutes } from "./_users.ts";

/** Every route. */
export const routes: readonly Route[] = [
  ...miscRoutes,
  ...userRoutes,
  ...revisionRoutes,
  ...linkRoutes,
  ...recordRoutes,
  ...fileRoutes,
  ...uploadRoutes,
  ...exportRoutes,
  ...roleRoutes("record", "records"),
  ...collectionRoutes,
  ...roleRoutes("collection", "collections"),
  ...groupRoutes,
  ...templateRoutes,
  ...templateExportRoutes,
  ...roleRoutes("template", "templates"),
];
