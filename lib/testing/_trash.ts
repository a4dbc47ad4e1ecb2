/**
 * The trash of every resource kind in one place: soft delete (`DELETE /<kind>s/<id>`), restore and
 * purge (`POST /<kind>s/<id>/restore|purge`), each recording a revision where the server does.
 *
 * @module
 */
import { type Ctx, loadActive } from "./_context.ts";
import { jsonResponse, noContent } from "./_errors.ts";
import { loadTrashed } from "./_resources.ts";
import { addRevision } from "./_revisions.ts";
import { type Route, route } from "./_router.ts";
import { type Kind, now, type Resource, type State } from "./_state.ts";

/** How one kind moves through the trash. */
export interface TrashOptions<T extends Resource> {
  kind: Kind;
  /** URL segment, e.g. `templates`. */
  segment: string;
  /** Renders a restored resource. */
  render: (ctx: Ctx, r: T) => unknown;
  /** Status of a successful purge (202 for records, whose purge runs as a task; else 204). */
  purgeStatus: 202 | 204;
  /** Removes the resource and what depends on it from the state. */
  purge: (state: State, r: T) => void | Promise<void>;
}

/**
 * Delete, restore and purge routes of one kind.
 */
export function trashRoutes<T extends Resource>(options: TrashOptions<T>): Route[] {
  const { kind, segment } = options;
  const move = (ctx: Ctx, r: T, state: "active" | "deleted") => {
    r.state = state;
    r.deletedAt = state === "deleted" ? now() : null;
    addRevision(ctx.state, r, ctx.user.id);
  };
  return [
    route("DELETE", `/${segment}/:id`, (ctx) => {
      move(ctx, loadActive<T>(ctx, kind, "id", "delete", `${kind}.delete`), "deleted");
      return noContent();
    }),
    route("POST", `/${segment}/:id/restore`, (ctx) => {
      const r = loadTrashed<T>(ctx, kind);
      move(ctx, r, "active");
      return jsonResponse(options.render(ctx, r));
    }),
    route("POST", `/${segment}/:id/purge`, async (ctx) => {
      await options.purge(ctx.state, loadTrashed<T>(ctx, kind));
      return options.purgeStatus === 202 ? jsonResponse({}, 202) : noContent();
    }),
  ];
}
