// /v3/lists: mailing lists (address, name, description, access_level, reply_preference) and their
// members (vars, subscribed), one by one, as a JSON batch or a CSV upload. A list belongs to its
// address's domain, and so to that domain's tenant. Account key only, as every Mailgun endpoint but sending.
import type { StoredList } from "../../core/list-model.ts";
import { invalid, notFound } from "../../core/errors.ts";
import { allMembers } from "../../core/list-service.ts";
import type { SurfaceDeps } from "../deps.ts";
import { principalOf } from "../context.ts";
import { parseYesNo, readForm, routeGroup, type Form } from "./form.ts";
import { accountOnly } from "./policy.ts";
import { baseUrlOf } from "./suppression-pages.ts";
import { memberOf, readBatch, readCsv, readListSettings, toMgList, toMgMember } from "./list-wire.ts";
import { newId } from "../../core/ids.ts";
import { seesTenant } from "../../core/permissions.ts";

type Deps = Pick<SurfaceDeps, "lists" | "domains" | "now">;
const READ = { permission: accountOnly("lists.read") };
const MANAGE = { permission: accountOnly("lists.manage") };

const limitOf = (form: Form, max = 1000) => {
  const n = Number(form.get("limit") ?? 100);
  if (!Number.isInteger(n) || n < 1 || n > max) throw invalid(`limit must be an integer from 1 to ${max}`, "limit");
  return n;
};

/** Pages by address, as mailgun.js reads them back (`?page=next&address=<last>&limit=N`). */
function paging(base: string, items: { address: string }[], limit: number) {
  const link = (page: string, address?: string) => `${base}?page=${page}${address !== undefined ? `&address=${encodeURIComponent(address)}` : ""}&limit=${limit}`;
  return { first: link("first"), last: link("last"), next: link("next", items.at(-1)?.address ?? ""), previous: link("previous", items[0]?.address ?? "") };
}

function pageOf<T extends { address: string }>(all: T[], form: Form, limit: number): T[] {
  const pivot = form.get("address")?.toLowerCase();
  const at = pivot ? all.findIndex((x) => x.address === pivot) : -1;
  const page = form.get("page");
  if (page === "last") return all.slice(Math.max(0, all.length - limit));
  if (page === "next" && pivot !== undefined) return all.slice(at + 1, at + 1 + limit);
  if (page === "previous" && at >= 0) return all.slice(Math.max(0, at - limit), at);
  return all.slice(0, limit);
}

const loader = (svc: Deps["lists"]) => async (request: Request, address: string): Promise<StoredList> => {
  const l = await svc.find(principalOf(request), "address-list", address.toLowerCase());
  if (!l) throw notFound("Mailing list not found");
  return l;
};

export function listRoutes(deps: Deps) {
  const svc = deps.lists;
  const load = loader(svc);
  // Another tenant's domain is as unknown as a missing one: a list belongs to its domain's tenant.
  const domainOf = async (request: Request, address: string) => {
    const parsed = memberOf(address, {});
    const domain = await deps.domains.get(parsed.address.split("@")[1]!);
    if (!domain || !seesTenant(principalOf(request), domain.tenantId)) throw invalid(`Domain not found: ${parsed.address.split("@")[1]}`, "address");
    return { address: parsed.address, domain };
  };

  return routeGroup()
    .get("/v3/lists/pages", async ({ request }) => {
      const form = await readForm(request);
      const limit = limitOf(form);
      const items = pageOf((await svc.list(principalOf(request), "address-list")).map(toMgList), form, limit);
      return { items, paging: paging(baseUrlOf(request), items, limit) };
    }, READ)
    .get("/v3/lists", async ({ request }) => {
      const form = await readForm(request);
      const all = (await svc.list(principalOf(request), "address-list")).map(toMgList);
      const items = form.get("address") ? all.filter((l) => l.address === form.get("address")!.toLowerCase()) : all.slice(0, limitOf(form));
      return { items, total_count: all.length };
    }, READ)
    .post("/v3/lists", async ({ request }) => {
      const form = await readForm(request);
      const { address, domain } = await domainOf(request, form.get("address") ?? "");
      const l = await svc.create({ kind: "address-list", id: address, domainId: domain.id, tenantId: domain.tenantId ?? 0, name: form.get("name") ?? "", description: form.get("description") ?? "",
        extra: { access_level: "readonly", reply_preference: "list", ...readListSettings(form) } });
      return { message: "Mailing list has been created", list: toMgList(l) };
    }, MANAGE)
    .get("/v3/lists/:address", async ({ request, params }) => ({ list: toMgList(await load(request, params.address)) }), READ)
    .put("/v3/lists/:address", async ({ request, params }) => {
      const l = await load(request, params.address);
      const form = await readForm(request);
      const rename = form.get("address") ? (await domainOf(request, form.get("address")!)) : undefined;
      if (rename && rename.domain.id !== l.domainId) throw invalid("a list keeps its domain", "address");
      const updated = await svc.update(l, { id: rename?.address, name: form.get("name"), description: form.get("description"), extra: { ...l.extra, ...readListSettings(form) } });
      return { message: "Mailing list has been updated", list: toMgList(updated) };
    }, MANAGE)
    .delete("/v3/lists/:address", async ({ request, params }) => {
      const l = await load(request, params.address);
      await svc.remove(l);
      return { message: "Mailing list has been removed", address: l.id };
    }, MANAGE);
}

/** /v3/lists/{address}/members…: one by one, as a JSON batch or a CSV upload. */
export function memberRoutes(deps: Deps) {
  const svc = deps.lists;
  const load = loader(svc);
  return routeGroup()
    .get("/v3/lists/:address/members/pages", async ({ request, params }) => {
      const l = await load(request, params.address);
      const form = await readForm(request);
      const limit = limitOf(form);
      const members = (await allMembers(svc, l, parseYesNo(form.get("subscribed")))).map(toMgMember);
      const items = pageOf(members, form, limit);
      return { items, paging: paging(baseUrlOf(request), items, limit) };
    }, READ)
    .get("/v3/lists/:address/members", async ({ request, params }) => {
      const l = await load(request, params.address);
      const form = await readForm(request);
      const members = (await allMembers(svc, l, parseYesNo(form.get("subscribed")))).map(toMgMember);
      return { items: members.slice(0, limitOf(form)), total_count: members.length };
    }, READ)
    .get("/v3/lists/:address/members/:member", async ({ request, params }) => {
      const m = await svc.member(await load(request, params.address), params.member);
      if (!m) throw notFound("Member not found");
      return { member: toMgMember(m) };
    }, READ)
    .post("/v3/lists/:address/members", async ({ request, params }) => {
      const l = await load(request, params.address);
      const form = await readForm(request);
      const m = memberOf(form.get("address"), { name: form.get("name"), vars: form.get("vars"), subscribed: form.get("subscribed") });
      const upsert = parseYesNo(form.get("upsert")) === true;
      if (!upsert && (await svc.member(l, m.address))) throw invalid(`Address already exists '${m.address}'`, "address");
      await svc.putMembers(l, [m], true);
      return { message: "Mailing list member has been created", member: toMgMember(m) };
    }, MANAGE)
    .post("/v3/lists/:address/members.json", async ({ request, params }) => {
      const l = await load(request, params.address);
      const form = await readForm(request);
      await svc.putMembers(l, readBatch(form.get("members")), parseYesNo(form.get("upsert")) === true);
      return { list: toMgList(await load(request, l.id)), message: "Mailing list has been updated", "task-id": newId(deps.now()) };
    }, MANAGE)
    .post("/v3/lists/:address/members.csv", async ({ request, params }) => {
      const l = await load(request, params.address);
      const form = await readForm(request);
      const file = form.keys().flatMap((k) => form.values(k)).find((v): v is File => typeof v !== "string");
      if (!file) throw invalid("a CSV file is required", "members");
      const members = readCsv(await file.text(), parseYesNo(form.get("subscribed")) ?? true);
      await svc.putMembers(l, members, parseYesNo(form.get("upsert")) === true);
      return { list: toMgList(await load(request, l.id)), message: "Mailing list has been updated", "task-id": newId(deps.now()) };
    }, MANAGE)
    .put("/v3/lists/:address/members/:member", async ({ request, params }) => {
      const l = await load(request, params.address);
      const old = await svc.member(l, params.member);
      if (!old) throw notFound("Member not found");
      const form = await readForm(request);
      const next = memberOf(form.get("address") ?? old.address, { name: form.get("name") ?? old.name, vars: form.get("vars") ?? old.vars,
        subscribed: form.get("subscribed") ?? old.subscribed });
      if (next.address !== old.address) await svc.removeMember(l, old.address);
      await svc.putMembers(l, [next], true);
      return { message: "Mailing list member has been updated", member: toMgMember(next) };
    }, MANAGE)
    .delete("/v3/lists/:address/members/:member", async ({ request, params }) => {
      const l = await load(request, params.address);
      if (!(await svc.removeMember(l, params.member))) throw notFound("Member not found");
      return { member: { address: params.member.toLowerCase() }, message: "Mailing list member has been deleted" };
    }, MANAGE);
}
