// The thin half of the template importers: read the file (bounded), convert it with a pure
// converter, create the template through the library.

import type { Transport } from "../http/transport.ts";
import { RepoTemplate } from "../model/template.ts";
import { createUnique } from "./_unique.ts";
import { readBoundedText } from "./read_bounded_text.ts";
import { templateData, type TemplateDraft, type TemplateKind } from "./template_draft.ts";
import { openResource } from "../resources/resource.ts";

/** Largest schema or shapes file read. */
const MAX_TEMPLATE_FILE_BYTES = 16 * 1024 * 1024;

/**
 * Reads a schema or shapes file (at most `maxBytes`), converts it with `convert` and creates the
 * template (of `templateType`, `extras` by default).
 */
export async function importTemplateFile(
  transport: Transport,
  path: string,
  options: { templateType?: TemplateKind; maxBytes?: number },
  convert: (text: string, options: { fileName: string }) => TemplateDraft,
): Promise<RepoTemplate> {
  const { templateType = "extras", maxBytes = MAX_TEMPLATE_FILE_BYTES } = options;
  const draft = convert(await readBoundedText(path, maxBytes), { fileName: path });
  return await createTemplate(transport, draft, templateType);
}

/** Creates a template from a draft under a free identifier generated from its title. */
function createTemplate(
  transport: Transport,
  draft: TemplateDraft,
  kind: TemplateKind,
): Promise<RepoTemplate> {
  const data = templateData(draft, kind);
  return createUnique(
    draft.title,
    "template",
    (identifier) =>
      openResource(transport, RepoTemplate, {
        identifier,
        create: true,
        title: draft.title,
        description: draft.description,
        type: kind,
        data,
      }),
  );
}
