/**
 * The export methods of records, collections and templates, written once; each class mixes them
 * into its prototype and declares them with {@linkcode ExportMethods}.
 *
 * @module
 */

import { type ExportMethods, exportResource, exportStream, type ExportTarget } from "./export.ts";

/** The export methods, written once; a class mixes them into its prototype. */
export const EXPORT_METHODS: ExportMethods<string> & ThisType<ExportTarget> = {
  export(path, exportType = "json", options = {}) {
    return exportResource(this, path, { ...options, exportType });
  },
  exportStream(exportType = "json", options = {}) {
    return exportStream(this, { ...options, exportType });
  },
};
