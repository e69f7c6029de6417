// /api/v1/recipient-lists: stored recipient lists (address, name, header_to, tags, metadata,
// substitution_data, return_path per recipient), used by transmissions as `recipients: {list_id}`.
// A domain key's lists belong to its domain; an account key's to the account.
import { Elysia } from "elysia";
import type { Principal } from "../../core/model.ts";
import type { ListMember, StoredList } from "../../core/list-model.ts";
import { allMembers } from "../../core/list-service.ts";
import { AppError } from "../../core/errors.ts";
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { principalOf } from "../context.ts";
import { permissions } from "../permission.ts";
import { need } from "./policy.ts";
import { readQuery } from "./query.ts";
import { badFormat, missingField, notFoundError, spError } from "./errors.ts";
import { isRecipient, readRecipient, type Json, type RcptError } from "./model.ts";
import { idFromName } from "./template-wire.ts";
import { isObject } from "../wire.ts";

type Deps = Pick<SurfaceDeps, "lists">;
const READ = need("lists.read");
const MANAGE = need("lists.manage");
const MAX_RECIPIENTS = 100_000;

/** One stored member as SparkPost's recipient object. */
export function toSpRecipient(m: ListMember): Json {
  const e = m.extra as { header_to?: string; tags?: string[]; metadata?: Json; return_path?: string };
  return {
    address: { email: m.address, ...(m.name ? { name: m.name } : {}), ...(e.header_to ? { header_to: e.header_to } : {}) },
    ...(e.return_path ? { return_path: e.return_path } : {}), tags: e.tags ?? [], metadata: e.metadata ?? {}, substitution_data: m.vars,
  };
}

/** Checks each recipient as a transmission would; the bad ones are counted (and reported) as rejected. */
function readRecipients(v: unknown): { members: ListMember[]; rejected: RcptError[] } {
  if (!Array.isArray(v)) throw badFormat("recipients must be an array");
  if (v.length > MAX_RECIPIENTS) throw badFormat(`at most ${MAX_RECIPIENTS} recipients per list`);
  const members: ListMember[] = [];
  const rejected: RcptError[] = [];
  const seen = new Set<string>();
  v.forEach((raw, i) => {
    const r = readRecipient(raw, i);
    if (!isRecipient(r)) return void rejected.push(r);
    const address = r.address.email.toLowerCase();
    if (seen.has(address)) return;
    seen.add(address);
    const returnPath = isObject(raw) && typeof raw.return_path === "string" ? raw.return_path : undefined;
    members.push({ address, name: r.address.name ?? "", vars: r.substitutionData, subscribed: true,
      extra: { ...(r.address.headerTo ? { header_to: r.address.headerTo } : {}), tags: r.tags, metadata: r.metadata, ...(returnPath ? { return_path: returnPath } : {}) } });
  });
  if (!members.length) throw spError(422, "5002", "At least one valid recipient is required", rejected[0]?.description);
  return { members, rejected };
}

const str = (b: Json, key: string) => (b[key] === undefined ? undefined : typeof b[key] === "string" ? (b[key] as string) : (() => { throw badFormat(`${key} must be a string`); })());

const summary = (l: StoredList) => ({ id: l.id, name: l.name, description: l.description, attributes: l.extra.attributes ?? {}, total_accepted_recipients: l.memberCount });

export function recipientListRoutes(deps: Deps) {
  const svc = deps.lists;
  const load = async (p: Principal, id: string, write = false) => {
    const l = await svc.find(p, "recipient-list", id);
    if (!l) throw notFoundError(`recipient list '${id}' does not exist`);
    if (write && p.kind === "domain" && l.domainId === null) throw spError(403, "1002", "Forbidden.", `recipient list '${id}' belongs to the account`);
    return l;
  };
  const counts = (l: StoredList, rejected: RcptError[]) => ({ results: { total_rejected_recipients: rejected.length, total_accepted_recipients: l.memberCount, id: l.id, name: l.name } });

  return (app: Elysia) => app.use(permissions)
    .post("/recipient-lists", async ({ request, body }) => {
      const p = principalOf(request);
      if (!isObject(body)) throw badFormat("the request body must be a JSON object");
      if (body.recipients === undefined) throw missingField("recipients is required");
      const { members, rejected } = readRecipients(body.recipients);
      const name = str(body, "name") ?? "";
      const id = str(body, "id") || (name ? idFromName(name) : `list-${Math.random().toString(36).slice(2, 10)}`);
      if (!/^[A-Za-z0-9_.-]{1,64}$/.test(id)) throw badFormat("id may hold letters, digits, '_', '-' and '.' (at most 64)");
      const l = await svc.create({ kind: "recipient-list", id, domainId: p.kind === "domain" ? (p.domain?.id ?? null) : null, tenantId: p.tenant ?? 0, name: name || id,
        description: str(body, "description") ?? "", extra: isObject(body.attributes) ? { attributes: body.attributes } : {} })
        .catch((e) => { throw e instanceof AppError && e.code === "conflict" ? spError(409, "1602", "resource conflict", e.message) : e; });
      await svc.putMembers(l, members, true);
      return json(200, counts((await svc.find(p, "recipient-list", l.id))!, rejected));
    }, { permission: MANAGE })
    .get("/recipient-lists", async ({ request }) => json(200, { results: (await svc.list(principalOf(request), "recipient-list")).map(summary) }), { permission: READ })
    .get("/recipient-lists/:id", async ({ request, params }) => {
      const l = await load(principalOf(request), params.id);
      const show = readQuery(request).bool("show_recipients") === true;
      return json(200, { results: { ...summary(l), ...(show ? { recipients: (await allMembers(svc, l)).map(toSpRecipient) } : {}) } });
    }, { permission: READ })
    .put("/recipient-lists/:id", async ({ request, params, body }) => {
      const p = principalOf(request);
      const l = await load(p, params.id, true);
      if (!isObject(body)) throw badFormat("the request body must be a JSON object");
      const read = body.recipients === undefined ? null : readRecipients(body.recipients);
      await svc.update(l, { name: str(body, "name"), description: str(body, "description"), ...(isObject(body.attributes) ? { extra: { ...l.extra, attributes: body.attributes } } : {}) });
      if (read) await svc.replaceMembers(l, read.members);
      return json(200, counts((await svc.find(p, "recipient-list", l.id))!, read?.rejected ?? []));
    }, { permission: MANAGE })
    .delete("/recipient-lists/:id", async ({ request, params }) => {
      await svc.remove(await load(principalOf(request), params.id, true));
      return new Response(null, { status: 204 });
    }, { permission: MANAGE });
}
