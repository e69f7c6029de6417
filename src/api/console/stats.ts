// Console: counts of accepted, delivered, failed, opened and clicked per hour or per day, for one
// domain or every visible one. Bots are left out by the store's count (core/activity.ts).
import { Elysia } from "elysia";
import { invalid } from "../../core/errors.ts";
import type { ConsoleDeps } from "./deps.ts";
import { principalOf } from "../context.ts";
import { permissions } from "../permission.ts";
import { domainFor } from "./policy.ts";
import { readTenant } from "../../core/permissions.ts";

export const SERIES = ["accepted", "delivered", "failed", "opened", "clicked"] as const;
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const RANGES = { hours: { step: HOUR, count: 48 }, days: { step: DAY, count: 30 } } as const;

/** Fills `count` buckets of `step` ending at `now` from hourly counts. */
export function bucketize(counts: { type: string; bucket: number; count: number }[], step: number, count: number, now: number) {
  const end = Math.floor(now / step) * step;
  const start = end - (count - 1) * step;
  const buckets = Array.from({ length: count }, (_, i) => start + i * step);
  const series = Object.fromEntries(SERIES.map((s) => [s, buckets.map(() => 0)])) as Record<(typeof SERIES)[number], number[]>;
  for (const c of counts) {
    const i = Math.floor((c.bucket - start) / step);
    const s = series[c.type as (typeof SERIES)[number]];
    if (s && i >= 0 && i < count) s[i]! += c.count;
  }
  return { buckets, series };
}

export function statsRoutes(deps: ConsoleDeps) {
  return new Elysia({ prefix: "/ui/api" }).use(permissions)
    .get("/stats", async ({ request, query }) => {
      const p = principalOf(request);
      const range = RANGES[(typeof query.range === "string" ? query.range : "hours") as keyof typeof RANGES];
      if (!range) throw invalid("range must be hours or days", "range");
      const name = typeof query.domain === "string" && query.domain ? query.domain : p.kind === "domain" ? p.domain!.name : null;
      const domain = name ? (await domainFor(request, deps.domains, name)).domain.name : null;
      const now = deps.now();
      const begin = now - range.count * range.step;
      // Without a domain: the acting tenant's domains (every tenant's for a user of every tenant).
      const counts = domain ? await deps.activity.counts(domain, begin, now) : await deps.activity.tenantCounts(readTenant(p), begin, now);
      return { domain, step: range.step, ...bucketize(counts, range.step, range.count, now) };
    }, { permission: { right: "stats.read" } });
}
