// SparkPost's message events search: GET /api/v1/events/message with `events`, `recipients`,
// `from`/`to` (ISO 8601), `per_page` (≤ 10000, default 1000) and the `cursor` of `links.next`.
// Results are the events as SparkPost's webhooks carry them (webhooks/formats/sparkpost-event.ts),
// newest first. A domain key reads its domain; an account key every domain.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { MessageEvent } from "../../core/model.ts";
import type { MessageSummary } from "../../webhooks/context.ts";
import { json } from "../errors.ts";
import { principalOf } from "../context.ts";
import { readTenant, seesDomain } from "../../core/permissions.ts";
import { permissions } from "../permission.ts";
import { sparkpostEvent, sparkpostType } from "../../webhooks/formats/sparkpost-event.ts";
import { spError } from "./errors.ts";

type Deps = Pick<SurfaceDeps, "activity" | "domains">;
const READ = { right: "events.read" } as const;
const SCAN_BATCH = 1000;
const MAX_SCAN = 100_000;

function timeOf(value: string | null, name: string): number | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw spError(400, "1300", "invalid data format/type", `${name} must be an ISO 8601 date`);
  return ms;
}

export function messageEventRoutes(deps: Deps) {
  return new Elysia({ name: "sparkpost-message-events" }).use(permissions)
    .get("/events/message", async ({ request }) => {
      const q = new URL(request.url).searchParams;
      const p = principalOf(request);
      const list = (name: string) => (q.get(name) ?? "").split(",").map((x) => x.trim().toLowerCase()).filter(Boolean);
      const [types, recipients] = [list("events"), list("recipients")];
      const perPage = Math.min(Math.max(Math.trunc(Number(q.get("per_page") ?? 1000)) || 1000, 1), 10_000);
      const begin = timeOf(q.get("from"), "from");
      const end = timeOf(q.get("to"), "to");
      // Another tenant's events stay out (X-MSYS-SUBACCOUNT; without it the primary reads every tenant's);
      // `subaccounts=` keeps the events of those tenants' domains.
      const subaccounts = list("subaccounts");
      const named = subaccounts.length
        ? new Set((await deps.domains.list(readTenant(p))).filter((d) => subaccounts.includes(String(d.tenantId ?? 0))).map((d) => d.name)) : null;
      const keep = (e: MessageEvent) => seesDomain(p, e.domain) && (!named || named.has(e.domain)) && (!types.length || types.includes(sparkpostType(e).type)) && (!recipients.length || recipients.includes(e.recipient));
      const found: MessageEvent[] = [];
      let cursor = q.get("cursor") ?? undefined;
      for (let read = 0; found.length < perPage && read < MAX_SCAN; read += SCAN_BATCH) {
        const query = { ascending: false, limit: SCAN_BATCH, ...(begin !== undefined && { begin }), ...(end !== undefined && { end }), ...(cursor && { cursor }) };
        const batch = p.kind === "domain" && p.domain ? await deps.activity.events(p.domain.name, query) : await deps.activity.allEvents(query);
        for (const e of batch) {
          cursor = e.id;
          if (keep(e)) found.push(e);
          if (found.length >= perPage) break;
        }
        if (batch.length < SCAN_BATCH) { cursor = found.length >= perPage ? cursor : undefined; break; }
      }
      const results = await Promise.all(found.map(async (e) => {
        const m = (await deps.activity.message(e.domain, e.messageId))?.message;
        const message: MessageSummary | null = m ? { id: m.id, messageIdHeader: m.messageIdHeader, from: m.from, subject: m.subject, size: m.size,
          source: m.source, isTest: m.isTest, createdAt: m.createdAt, sendId: m.sendId, campaignId: m.extra?.campaignId, ipPool: m.extra?.ipPool } : null;
        // The search answers the event itself, without the webhook's {"msys":{"<category>":…}} wrapping.
        return Object.values((sparkpostEvent({ event: e, message }) as { msys: Record<string, unknown> }).msys)[0];
      }));
      const next = found.length >= perPage && cursor ? `/api/v1/events/message?${new URLSearchParams({ ...Object.fromEntries(q), cursor }).toString()}` : null;
      return json(200, { results, total_count: results.length, links: next ? { next } : {} });
    }, { permission: READ });
}
