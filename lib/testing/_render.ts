/**
 * JSON representations of the local repository server's objects, with absolute `_links` and
 * `_actions` built from the request's origin and API prefix.
 *
 * @module
 */
import { UPLOAD_CHUNK_SIZE } from "../http/protocol.ts";
import { type Ctx, seesUsers } from "./_context.ts";
import type {
  CollectionData,
  GroupData,
  RecordData,
  RecordLink,
  Resource,
  StoredFile,
  TemplateData,
  Upload,
  User,
} from "./_state.ts";

/**
 * A user's identity; the real server shows the email address only in the caller's own.
 */
export function identityJson(ctx: Ctx, user: User): Record<string, unknown> {
  const identity: Record<string, unknown> = { type: user.identityType, username: user.username };
  if (user.id === ctx.user.id) {
    Object.assign(identity, { email: user.email, email_confirmed: true });
  }
  return identity;
}

/**
 * A user.
 */
export function userJson(ctx: Ctx, user: User): Record<string, unknown> {
  const self = `${ctx.base}/users/${user.id}`;
  const out: Record<string, unknown> = {
    id: user.id,
    displayname: user.displayname,
    orcid: null,
    state: user.state,
    identity: identityJson(ctx, user),
    _links: {
      self,
      identities: `${self}/identities`,
      records: `${self}/records`,
      collections: `${self}/collections`,
      templates: `${self}/templates`,
      groups: `${self}/groups`,
      view: `${ctx.origin}/users/${user.id}`,
    },
  };
  if (user.id === ctx.user.id) out.created_at = user.createdAt;
  return out;
}

function creator(ctx: Ctx, userId: number): Record<string, unknown> {
  const user = ctx.state.users.get(userId);
  if (!user) return {};
  return seesUsers(ctx) ? { creator: userJson(ctx, user) } : {};
}

/**
 * Markdown stripped to plain text (approximation).
 */
export function plainText(text: string): string {
  return text.replace(/[*_`#>~]|\[|\]\([^)]*\)/g, "").replace(/\s+/g, " ").trim();
}

function base(ctx: Ctx, r: Resource): Record<string, unknown> {
  return {
    id: r.id,
    identifier: r.identifier,
    title: r.title,
    description: r.description,
    plain_description: plainText(r.description),
    visibility: r.visibility,
    state: r.state,
    created_at: r.createdAt,
    last_modified: r.lastModified,
    ...creator(ctx, r.creatorId),
  };
}

/**
 * A record.
 *
 * @param removeLinkOf Collection ID when listed via a collection (adds `remove_link`).
 */
export function recordJson(
  ctx: Ctx,
  r: RecordData,
  removeLinkOf?: number,
): Record<string, unknown> {
  const self = `${ctx.base}/records/${r.id}`;
  const actions: Record<string, string> = {
    edit: self,
    delete: self,
    new_upload: `${self}/uploads`,
    link_record: `${self}/records`,
    link_collection: `${self}/collections`,
    add_user_role: `${self}/roles/users`,
    add_group_role: `${self}/roles/groups`,
  };
  if (removeLinkOf !== undefined) {
    actions.remove_link = `${ctx.base}/collections/${removeLinkOf}/records/${r.id}`;
  }
  return {
    ...base(ctx, r),
    type: r.type,
    license: r.license,
    tags: [...r.tags],
    extras: structuredClone(r.extras),
    _links: {
      self,
      files: `${self}/files`,
      download_files: `${self}/files/download`,
      uploads: `${self}/uploads`,
      collections: `${self}/collections`,
      records_to: `${self}/records?direction=out`,
      records_from: `${self}/records?direction=in`,
      user_roles: `${self}/roles/users`,
      group_roles: `${self}/roles/groups`,
      revisions: `${self}/revisions`,
      file_revisions: `${self}/files/revisions`,
      view: `${ctx.origin}/records/${r.id}`,
    },
    _actions: actions,
  };
}

/**
 * A collection.
 *
 * @param removeLinkOf Link context (record or parent collection URL) adding `remove_link`.
 */
export function collectionJson(
  ctx: Ctx,
  c: CollectionData,
  removeLinkOf?: string,
): Record<string, unknown> {
  const self = `${ctx.base}/collections/${c.id}`;
  const links: Record<string, string> = {
    self,
    records: `${self}/records`,
    children: `${self}/collections`,
    user_roles: `${self}/roles/users`,
    group_roles: `${self}/roles/groups`,
    revisions: `${self}/revisions`,
    view: `${ctx.origin}/collections/${c.id}`,
  };
  if (c.parentId !== null) links.parent = `${ctx.base}/collections/${c.parentId}`;
  const actions: Record<string, string> = {
    edit: self,
    delete: self,
    link_record: `${self}/records`,
    link_collection: `${self}/collections`,
    add_user_role: `${self}/roles/users`,
    add_group_role: `${self}/roles/groups`,
  };
  if (removeLinkOf !== undefined) actions.remove_link = removeLinkOf;
  return { ...base(ctx, c), tags: [...c.tags], _links: links, _actions: actions };
}

/**
 * A group.
 */
export function groupJson(ctx: Ctx, g: GroupData): Record<string, unknown> {
  const self = `${ctx.base}/groups/${g.id}`;
  return {
    ...base(ctx, g),
    _links: {
      self,
      members: `${self}/members`,
      records: `${self}/records`,
      collections: `${self}/collections`,
      templates: `${self}/templates`,
      revisions: `${self}/revisions`,
      view: `${ctx.origin}/groups/${g.id}`,
    },
    _actions: { edit: self, delete: self, add_member: `${self}/members` },
  };
}

/**
 * A template.
 */
export function templateJson(ctx: Ctx, t: TemplateData): Record<string, unknown> {
  const self = `${ctx.base}/templates/${t.id}`;
  return {
    ...base(ctx, t),
    type: t.type,
    data: structuredClone(t.data),
    _links: {
      self,
      user_roles: `${self}/roles/users`,
      group_roles: `${self}/roles/groups`,
      revisions: `${self}/revisions`,
      view: `${ctx.origin}/templates/${t.id}`,
    },
    _actions: {
      edit: self,
      delete: self,
      add_user_role: `${self}/roles/users`,
      add_group_role: `${self}/roles/groups`,
    },
  };
}

/**
 * A record, collection, template or group, by its kind.
 */
export function resourceJson(ctx: Ctx, r: Resource): Record<string, unknown> {
  if (r.kind === "record") return recordJson(ctx, r as RecordData);
  if (r.kind === "collection") return collectionJson(ctx, r as CollectionData);
  if (r.kind === "template") return templateJson(ctx, r as TemplateData);
  return groupJson(ctx, r as GroupData);
}

/**
 * A file.
 */
export function fileJson(ctx: Ctx, f: StoredFile): Record<string, unknown> {
  const record = `${ctx.base}/records/${f.recordId}`;
  const self = `${record}/files/${f.id}`;
  return {
    id: f.id,
    name: f.name,
    description: f.description,
    mimetype: f.mimetype,
    magic_mimetype: f.magicMimetype,
    size: f.size,
    checksum: f.checksum,
    storage_type: "local",
    state: f.state,
    created_at: f.createdAt,
    last_modified: f.lastModified,
    ...creator(ctx, f.creatorId),
    _links: {
      self,
      download: `${self}/download`,
      record,
      view: `${ctx.origin}/records/${f.recordId}/files/${f.id}`,
    },
    _actions: { delete: self, edit_metadata: self, edit_data: self },
  };
}

/**
 * An upload (with `_meta.task` once a chunked upload was finished).
 *
 * @param withChecksum Whether to include `checksum` (not on creation).
 */
export function uploadJson(ctx: Ctx, u: Upload, withChecksum = true): Record<string, unknown> {
  const record = `${ctx.base}/records/${u.recordId}`;
  const self = `${record}/uploads/${u.id}`;
  const replaced = u.fileId === null ? undefined : ctx.state.files.get(u.fileId);
  const actions: Record<string, string> = { delete: self, upload_data: self };
  if (u.uploadType === "chunked") actions.finish = self;
  const meta: Record<string, unknown> = {
    chunk_size: u.uploadType === "chunked" ? UPLOAD_CHUNK_SIZE : u.size,
  };
  if (u.task) {
    const task: Record<string, unknown> = { state: u.task.state };
    const file = u.task.fileId === undefined ? undefined : ctx.state.files.get(u.task.fileId);
    if (file) task.file = fileJson(ctx, file);
    if (u.task.error !== undefined) task.error = u.task.error;
    meta.task = task;
  }
  const out: Record<string, unknown> = {
    id: u.id,
    name: u.name,
    size: u.size,
    description: u.description,
    mimetype: u.mimetype,
  };
  if (withChecksum) out.checksum = u.checksum;
  Object.assign(out, {
    chunk_count: u.chunkCount,
    storage_type: "local",
    upload_type: u.uploadType,
    state: u.state,
    created_at: u.createdAt,
    last_modified: u.lastModified,
    ...creator(ctx, u.creatorId),
    file: replaced ? fileJson(ctx, replaced) : null,
    chunks: [...u.chunks.values()].sort((a, b) => a.index - b.index).map((c) => ({
      index: c.index,
      size: c.size,
      checksum: c.checksum,
    })),
    _links: { self, record },
    _actions: actions,
    _meta: meta,
  });
  return out;
}

/**
 * A record link; `side` decides which record is left out.
 *
 * @param side `out` leaves out `record_from`, `in` leaves out `record_to`, `both` keeps both.
 */
export function linkJson(
  ctx: Ctx,
  l: RecordLink,
  side: "out" | "in" | "both",
): Record<string, unknown> {
  const self = `${ctx.base}/records/${l.fromId}/records/${l.id}`;
  const out: Record<string, unknown> = {
    id: l.id,
    name: l.name,
    term: l.term,
    created_at: l.createdAt,
    last_modified: l.lastModified,
    ...creator(ctx, l.creatorId),
  };
  const from = ctx.state.records.get(l.fromId);
  const to = ctx.state.records.get(l.toId);
  if (side !== "out" && from) out.record_from = recordJson(ctx, from);
  if (side !== "in" && to) out.record_to = recordJson(ctx, to);
  out._links = { self };
  out._actions = { edit: self, remove: self };
  return out;
}
