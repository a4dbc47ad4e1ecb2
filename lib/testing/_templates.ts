/**
 * Template routes: search, create (types `record` and `extras`, data validated per type), get (by
 * ID and identifier), edit, delete, restore and purge. Roles, revisions and exports live with the
 * other kinds' (`_roles.ts`, `_revisions.ts`, `_template_exports.ts`).
 *
 * @module
 */
import { type Ctx, loadActive, readObject, requireScopes } from "./_context.ts";
import { jsonResponse } from "./_errors.ts";
import { searchFilters } from "./_filters.ts";
import { paginate } from "./_pagination.ts";
import { templateJson } from "./_render.ts";
import { insertResource, loadByIdentifier, newResource } from "./_resources.ts";
import { addRevision } from "./_revisions.ts";
import { type Route, route } from "./_router.ts";
import { validateResource } from "./_schema.ts";
import { sortResources } from "./_search.ts";
import { trashRoutes } from "./_trash.ts";
import { now, type TemplateData } from "./_state.ts";
import { checkTemplateType, type TemplateType, validateTemplateData } from "./_template_data.ts";

function search(ctx: Ctx): Response {
  requireScopes(ctx, "template.read");
  const q = ctx.url.searchParams;
  const filtered = searchFilters(ctx, ctx.state.templates.values(), [
    "query",
    "visibility",
    "explicit_permissions",
    "user",
  ]);
  const { params } = filtered;
  let items = filtered.items;
  const type = q.get("type")?.trim().toLowerCase();
  if (type === "record" || type === "extras") {
    params.push(["type", type]);
    items = items.filter((t) => t.type === type);
  }
  const sort = q.get("sort");
  if (sort !== null) params.push(["sort", sort]);
  return paginate(
    ctx,
    sortResources(items, sort === "_score" ? null : sort),
    (t) => templateJson(ctx, t),
    { params, search: true, actions: { new_template: `${ctx.base}/templates` } },
  );
}

async function create(ctx: Ctx): Promise<Response> {
  let type: TemplateType | undefined;
  let data: unknown;
  const { resource } = await newResource(ctx, "template", [], (body, errors) => {
    type = checkTemplateType(body.type, errors);
    if (body.data === undefined) errors.data = ["Missing data for required field."];
    else if (type !== undefined) {
      const result = validateTemplateData(ctx.state, type, body.data);
      if (result.errors) errors.data = result.errors;
      else data = result.value;
    }
  });
  const template: TemplateData = { ...resource, type: type!, data };
  insertResource(ctx, template);
  addRevision(ctx.state, template, ctx.user.id);
  return jsonResponse(templateJson(ctx, template), 201);
}

async function edit(ctx: Ctx): Promise<Response> {
  const template = loadActive<TemplateData>(ctx, "template", "id", "update", "template.update");
  let data: unknown;
  const input = validateResource(ctx.state, "template", await readObject(ctx), {
    partial: true,
    selfId: template.id,
    fields: [],
    more: (body, errors) => {
      if (body.data === undefined) return;
      const result = validateTemplateData(ctx.state, template.type, body.data);
      if (result.errors) errors.data = result.errors;
      else data = result.value;
    },
  });
  Object.assign(template, input, data === undefined ? {} : { data }, { lastModified: now() });
  addRevision(ctx.state, template, ctx.user.id);
  return jsonResponse(templateJson(ctx, template));
}

/** Template routes. */
export const templateRoutes: Route[] = [
  route("GET", "/templates", search),
  route("POST", "/templates", create),
  route(
    "GET",
    "/templates/identifier/:identifier:str",
    (ctx) => jsonResponse(templateJson(ctx, loadByIdentifier<TemplateData>(ctx, "template"))),
  ),
  route("GET", "/templates/:id", (ctx) =>
    jsonResponse(templateJson(
      ctx,
      loadActive<TemplateData>(ctx, "template", "id", "read", "template.read"),
    ))),
  route("PATCH", "/templates/:id", edit),
  ...trashRoutes<TemplateData>({
    kind: "template",
    segment: "templates",
    render: templateJson,
    purgeStatus: 204,
    purge: (state, t) => void state.templates.delete(t.id),
  }),
];
