// SparkPost's /api/v1/alerts over postern's alert rules. Metrics that map: hard_bounce_rate,
// block_bounce_rate (postern's block_rate) and monthly_sending_limit (usage_limit: the share of a
// domain's sending limit used), with threshold_evaluator {source: "raw", operator: "gt", value} in
// percent; a `sending_domain` filter of one domain; channels.emails and channels.webhooks; muted.
// Anything else (health_score, soft bounces, "lt", other filters) is refused with SparkPost's 422.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { permissions } from "../permission.ts";
import { isObject } from "../wire.ts";
import type { StoredAlertRule } from "../../core/alerts-port.ts";
import { primaryOnly } from "../../core/permissions.ts";
import { badFormat, missingField, notFoundError } from "./errors.ts";

type Deps = Pick<SurfaceDeps, "alerts">;
type Body = Record<string, unknown>;

/** SparkPost metric → postern metric. */
const METRIC: Record<string, string> = { hard_bounce_rate: "hard_bounce_rate", block_bounce_rate: "block_rate", monthly_sending_limit: "usage_limit" };
const SPARKPOST_METRIC = Object.fromEntries(Object.entries(METRIC).map(([k, v]) => [v, k]));

function targets(v: unknown, field: string): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw badFormat(`channels.${field} must be an array`);
  return v.map((x) => (typeof x === "string" ? x : isObject(x) && typeof (x.target ?? x.url) === "string" ? String(x.target ?? x.url) : "")).map((s) => {
    if (!s || (field === "webhooks" && !/^https?:\/\//.test(s))) throw badFormat(`channels.${field} holds an invalid entry`);
    return s;
  });
}

function domainOf(filters: unknown): string | null {
  if (filters === undefined || (Array.isArray(filters) && filters.length === 0)) return null;
  if (!Array.isArray(filters) || filters.length !== 1 || !isObject(filters[0])) throw badFormat("postern filters alerts by one sending_domain only");
  const f = filters[0] as Body;
  const values = f.filter_values;
  if (f.filter_type !== "sending_domain" || !Array.isArray(values) || values.length !== 1 || typeof values[0] !== "string") {
    throw badFormat(`filter ${JSON.stringify(f.filter_type)} is not supported by postern: one sending_domain value only`);
  }
  return values[0];
}

/** The native rule input and the kept SparkPost fields of a create (or a full PUT). */
function readAlert(b: unknown) {
  if (!isObject(b)) throw badFormat("the request body must be a JSON object");
  const body = b as Body;
  for (const f of ["name", "metric", "threshold_evaluator"]) if (body[f] === undefined) throw missingField(`${f} is required`);
  const metric = METRIC[String(body.metric)];
  if (!metric) throw badFormat(`metric ${JSON.stringify(body.metric)} is not supported by postern (hard_bounce_rate, block_bounce_rate, monthly_sending_limit)`);
  const ev = body.threshold_evaluator as Body;
  if (!isObject(ev) || typeof ev.value !== "number" || ev.value < 0 || ev.value > 100) throw badFormat("threshold_evaluator.value must be a number from 0 to 100");
  if ((ev.source ?? "raw") !== "raw") throw badFormat("threshold_evaluator.source: postern evaluates raw values only");
  if ((ev.operator ?? "gt") !== "gt") throw badFormat("threshold_evaluator.operator: postern alerts fire above a threshold (gt) only");
  const channels = (isObject(body.channels) ? body.channels : {}) as Body;
  const extra = { name: String(body.name), emails: targets(channels.emails, "emails"), webhooks: targets(channels.webhooks, "webhooks"),
    muted: body.muted === true, any_subaccount: body.any_subaccount === true };
  return { input: { metric, threshold: ev.value / 100, domain: domainOf(body.filters) }, extra };
}

function view(r: StoredAlertRule) {
  const x = r.extra as { name?: string; emails?: string[]; webhooks?: string[]; muted?: boolean; any_subaccount?: boolean };
  return { id: String(r.id), name: x.name ?? `${r.metric} ${r.id}`, metric: SPARKPOST_METRIC[r.metric],
    threshold_evaluator: { source: "raw", operator: "gt", value: Math.round(r.threshold * 100_000) / 1000 },
    channels: { emails: x.emails ?? [], webhooks: x.webhooks ?? [] },
    filters: r.domain ? [{ filter_type: "sending_domain", filter_values: [r.domain] }] : [],
    any_subaccount: x.any_subaccount ?? false, muted: x.muted ?? false, created: new Date(r.createdAt).toISOString() };
}

export function alertRoutes(deps: Deps) {
  const mapped = async () => (await deps.alerts.configured()).filter((r) => SPARKPOST_METRIC[r.metric]);
  const one = async (id: string) => {
    const r = (await mapped()).find((x) => String(x.id) === id);
    if (!r) throw notFoundError(`alert ${id} not found`);
    return r;
  };
  return new Elysia({ name: "sparkpost-alerts" }).use(permissions)
    .get("/alerts", async () => json(200, { results: (await mapped()).map(view) }), { permission: primaryOnly("alerts.read") })
    .post("/alerts", async ({ body }) => {
      const { input, extra } = readAlert(body);
      const rule = await deps.alerts.createRule(input, "sparkpost", extra);
      return json(200, { results: { id: String(rule.id) } });
    }, { permission: primaryOnly("alerts.manage") })
    .get("/alerts/:id", async ({ params }) => json(200, { results: view(await one(params.id)) }), { permission: primaryOnly("alerts.read") })
    .put("/alerts/:id", async ({ params, body }) => {
      await one(params.id);
      const { input, extra } = readAlert(body);
      const rule = await deps.alerts.changeRule(params.id, input, extra);
      return json(200, { results: view(rule!) });
    }, { permission: primaryOnly("alerts.manage") })
    .delete("/alerts/:id", async ({ params }) => {
      await one(params.id);
      await deps.alerts.deleteRule(params.id);
      return new Response(null, { status: 204 });
    }, { permission: primaryOnly("alerts.manage") });
}
