// Console: a domain's suppression lists: search by address, list by type, add (one address, or a
// CSV import the page sends in chunks so it can show progress), remove. core/suppressions.ts does it.
import { Elysia } from "elysia";
import { invalid } from "../../core/errors.ts";
import type { SuppressionInput } from "../../core/suppressions.ts";
import type { ConsoleDeps } from "./deps.ts";
import { permissions } from "../permission.ts";
import { domainFor, field, requiredField } from "./policy.ts";

/** Rows per request of a CSV import (the page sends chunks of at most this many). */
export const MAX_IMPORT_ROWS = 1000;
const PAGE = 50;

function entriesOf(body: unknown): SuppressionInput[] {
  const raw = (body as { entries?: unknown } | null)?.entries;
  if (raw === undefined) return [{ address: requiredField(body, "address"), reason: field(body, "reason") }];
  if (!Array.isArray(raw) || raw.length === 0) throw invalid("entries must be a non-empty list", "entries");
  if (raw.length > MAX_IMPORT_ROWS) throw invalid(`at most ${MAX_IMPORT_ROWS} entries per request`, "entries");
  return raw.map((e) => ({ address: requiredField(e, "address"), reason: field(e, "reason"), code: field(e, "code") }));
}

export function suppressionRoutes(deps: ConsoleDeps) {
  return new Elysia({ prefix: "/ui/api" }).use(permissions)
    .get("/domains/:domain/suppressions", async ({ request, params, query }) => {
      const { domain } = await domainFor(request, deps.domains, params.domain);
      const q = typeof query.q === "string" ? query.q.trim() : "";
      const type = typeof query.type === "string" && query.type ? query.type : undefined;
      const after = typeof query.after === "string" && query.after ? query.after : undefined;
      const rows = await deps.suppressions.list(domain.name, { type, address: q || undefined, after, limit: PAGE });
      return { items: rows, next: rows.length === PAGE ? rows.at(-1)!.address : null };
    }, { permission: { right: "suppressions.read", domain: "domain" } })
    .post("/domains/:domain/suppressions", async ({ request, params, body }) => {
      const { domain } = await domainFor(request, deps.domains, params.domain);
      const added = await deps.suppressions.add(domain.name, requiredField(body, "type"), entriesOf(body));
      return { added };
    }, { permission: { right: "suppressions.manage", domain: "domain" } })
    .delete("/domains/:domain/suppressions/:type/:address", async ({ request, params }) => {
      const { domain } = await domainFor(request, deps.domains, params.domain);
      const removed = await deps.suppressions.remove(domain.name, params.type, decodeURIComponent(params.address));
      return { removed };
    }, { permission: { right: "suppressions.manage", domain: "domain" } });
}
