// /api/v1/suppression-list and the spec's /api/v1/{domain}/suppression-list: search (filters and
// cursor), get, upsert and delete over the domains in scope (the path's, the domain key's, or every
// domain for an account key: SparkPost's list is account-wide). Entries added here go to the
// unsubscribes list with their SparkPost type as the scope.
import { checkSyntax } from "../../core/address/address.ts";
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { badFormat, SparkpostError } from "./errors.ts";
import { need, scopedDomains } from "./policy.ts";
import { permissions } from "../permission.ts";
import { principalOf } from "../context.ts";
import { readQuery, type Query } from "./query.ts";
import { entriesOf, NATIVE_TYPES, scanAddresses, SP_TYPES, type SpEntry, type SpType } from "./suppression-entries.ts";
import { isObject } from "../wire.ts";

type Deps = Pick<SurfaceDeps, "suppressions" | "domains">;

const MANUAL_LIST = "unsubscribes";
const MAX_UPSERT = 10_000;
const notFound = () => new SparkpostError(404, [{ message: "Recipient could not be found", code: "1600" }]);

/** An upsert item's scope: `type`, or the legacy transactional/non_transactional booleans (both = null). */
function scopeOf(item: Record<string, unknown>): string | null | undefined {
  if (item.type === "transactional" || item.type === "non_transactional") return item.type;
  if (item.type !== undefined) return undefined;
  const [t, n] = [item.transactional === true, item.non_transactional === true];
  return t && n ? null : t ? "transactional" : n ? "non_transactional" : undefined;
}

function readUpsert(body: unknown): { address: string; scope: string | null; description: string }[] {
  const list = isObject(body) ? body.recipients : undefined;
  if (!Array.isArray(list) || !list.length) throw new SparkpostError(400, [{ message: "recipients is required", code: "1400" }]);
  if (list.length > MAX_UPSERT) throw new SparkpostError(400, [{ message: `at most ${MAX_UPSERT} recipients per request`, code: "1300" }]);
  const bad: string[] = [];
  const items = list.map((item) => {
    const r = isObject(item) ? item.recipient ?? item.email : undefined;
    const scope = isObject(item) ? scopeOf(item) : undefined;
    const description = isObject(item) && typeof item.description === "string" ? item.description : "";
    if (typeof r !== "string" || checkSyntax(r.trim()).length > 0 || scope === undefined) bad.push(typeof r === "string" ? r : JSON.stringify(item));
    return { address: String(r).trim().toLowerCase(), scope: scope ?? null, description };
  });
  if (bad.length) throw new SparkpostError(400, [{ message: `PUT body contains ${bad.length} invalid or malformed recipient(s): ${bad.join(", ")}`, code: "1300" }]);
  return items;
}

/** Adds or widens manual entries (a transactional + a non_transactional entry make one row for both). */
async function upsert(deps: Deps, domains: string[], items: ReturnType<typeof readUpsert>) {
  for (const domain of domains) {
    const entries = await Promise.all(items.map(async (i) => {
      const current = await deps.suppressions.get(domain, MANUAL_LIST, i.address);
      const scope = current && current.scope !== i.scope ? null : i.scope;
      // One row holds both types, so an upsert without a description keeps the one it had.
      return { address: i.address, reason: i.description || current?.reason || "", scope };
    }));
    await deps.suppressions.add(domain, MANUAL_LIST, entries);
  }
}

/** Removes `address` (one SparkPost type, or both); false when it was on no list. */
async function remove(deps: Deps, domains: string[], address: string, type?: SpType): Promise<boolean> {
  let found = false;
  for (const domain of domains) {
    for (const list of NATIVE_TYPES) {
      const row = await deps.suppressions.get(domain, list, address);
      if (!row || (type && row.scope !== null && row.scope !== type)) continue;
      found = true;
      await deps.suppressions.remove(domain, list, address);
      // Removing one type of a both-types row leaves the other type.
      if (type && row.scope === null) {
        const other = SP_TYPES.find((t) => t !== type)!;
        await deps.suppressions.add(domain, list, [{ address: row.address, reason: row.reason, code: row.code, scope: other, createdAt: row.createdAt }]);
      }
    }
  }
  return found;
}

async function lookup(deps: Deps, domains: string[], address: string): Promise<SpEntry[]> {
  const rows = (await Promise.all(domains.map((d) => deps.suppressions.list(d, { address, limit: 10 })))).flat();
  return entriesOf(rows);
}

/** The search filters of GET /suppression-list, applied to entries. */
function entryFilter(q: Query): (e: SpEntry) => boolean {
  const time = (name: string) => {
    const v = q.str(name);
    if (v === undefined) return undefined;
    const t = Date.parse(v.replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
    if (Number.isNaN(t)) throw badFormat(`${name} must be a date like YYYY-MM-DDTHH:mm:ssZ`);
    return t;
  };
  const [from, to, types, sources] = [time("from"), time("to"), q.list("types"), q.list("sources")?.map((s) => s.toLowerCase())];
  const [domain, description, isStrict] = [q.str("domain")?.toLowerCase(), q.str("description"), q.bool("description_strict") ?? false];
  return (e) => {
    const created = Date.parse(e.created);
    if ((from !== undefined && created < from) || (to !== undefined && created > to)) return false;
    if (types && !types.includes(e.type)) return false;
    if (sources && !sources.includes(e.source.toLowerCase())) return false;
    if (domain && !e.recipient.endsWith(`@${domain}`)) return false;
    if (description !== undefined) return isStrict ? e.description === description : e.description.toLowerCase().includes(description.toLowerCase());
    return true;
  };
}

const encodeCursor = (address: string) => Buffer.from(address).toString("base64url");
const decodeCursor = (cursor: string | undefined) => (cursor && cursor !== "initial" ? Buffer.from(cursor, "base64url").toString("utf8") : undefined);

/** One page of matching entries after the cursor, the next cursor, and the total number of matches. */
async function search(deps: Deps, domains: string[], q: Query) {
  const perPage = q.int("per_page", { min: 1, max: 10_000 }) ?? q.int("limit", { min: 1, max: 10_000 }) ?? 1000;
  const after = decodeCursor(q.str("cursor"));
  const matches = entryFilter(q);
  const page: SpEntry[] = [];
  let total = 0;
  let next: string | undefined;
  for await (const rows of scanAddresses(deps.suppressions.list, domains)) {
    const entries = entriesOf(rows).filter(matches);
    total += entries.length;
    if (!entries.length || (after !== undefined && rows[0]!.address <= after)) continue;
    if (page.length >= perPage) { next ??= page.at(-1)!.recipient; continue; }
    page.push(...entries);
  }
  const base = `/api/v1/suppression-list?per_page=${perPage}`;
  const links = [{ href: base, rel: "first" }, ...(next ? [{ href: `${base}&cursor=${encodeCursor(next)}`, rel: "next" }] : [])];
  return { results: page, links, total_count: total };
}

/** GET /suppression-list/summary: entries per source (snake_case) and the total. */
async function summary(deps: Deps, domains: string[]) {
  const counts: Record<string, number> = { compliance: 0, manually_added: 0, unsubscribe_link: 0, bounce_rule: 0, list_unsubscribe: 0, spam_complaint: 0, total: 0 };
  for await (const rows of scanAddresses(deps.suppressions.list, domains)) {
    for (const e of entriesOf(rows)) {
      const key = e.source.toLowerCase().replace(/ /g, "_");
      counts[key] = (counts[key] ?? 0) + 1;
      counts.total!++;
    }
  }
  return counts;
}

export function suppressionRoutes(deps: Deps, prefix: "" | "/:domain") {
  const names = async (request: Request, params: Record<string, string> | undefined) =>
    (await scopedDomains(request, deps.domains, params?.domain)).map((d) => d.name);
  return (app: Elysia) => app.use(permissions)
    .get(`${prefix}/suppression-list`, async ({ request, params }) => {
      return json(200, await search(deps, await names(request, params), readQuery(request)));
    }, { permission: need("suppressions.read", { prefix }) })
    .put(`${prefix}/suppression-list`, async ({ request, params, body }) => {
      await upsert(deps, await names(request, params), readUpsert(body));
      return json(200, { results: { message: "Suppression List successfully updated" } });
    }, { permission: need("suppressions.manage", { prefix }) })
    .get(`${prefix}/suppression-list/summary`, async ({ request, params }) => {
      return json(200, { results: await summary(deps, await names(request, params)) });
    }, { permission: need("suppressions.read", { prefix }) })
    .get(`${prefix}/suppression-list/:recipient`, async ({ request, params }) => {
      const types = readQuery(request).list("types");
      const entries = (await lookup(deps, await names(request, params), params.recipient)).filter((e) => !types || types.includes(e.type));
      if (!entries.length) throw notFound();
      return json(200, { results: entries, links: [], total_count: entries.length });
    }, { permission: need("suppressions.read", { prefix }) })
    .delete(`${prefix}/suppression-list/:recipient`, async ({ request, params, body }) => {
      const type = isObject(body) && (body.type === "transactional" || body.type === "non_transactional") ? body.type : undefined;
      if (!(await remove(deps, await names(request, params), params.recipient, type))) throw notFound();
      return new Response(null, { status: 204 });
    }, { permission: need("suppressions.manage", { prefix }) });
}
