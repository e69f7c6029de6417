// SendGrid's /v3/alerts over postern's alert rules. `usage_limit` (mail when `percentage` of the
// plan's credits is used) maps onto the usage_limit rule: the share of each domain's sending limit
// (`domain set --limit`) used in its window, mailed to `email_to`. `stats_notification` (a periodic
// stats report) has no rule to map onto and is refused in SendGrid's error shape.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { permissions } from "../permission.ts";
import { primaryOnly } from "../../core/permissions.ts";
import { AppError } from "../../core/errors.ts";
import type { StoredAlertRule } from "../../core/alerts-port.ts";

type Deps = Pick<SurfaceDeps, "alerts">;

// Alert rules are the installation's (over every tenant's domains): the primary acting for itself.
const READ = primaryOnly("alerts.read");
const MANAGE = primaryOnly("alerts.manage");
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const bad = (field: string, message: string) => new AppError("invalid", message, { field });
const unix = (ms: number) => Math.floor(ms / 1000);

function view(r: StoredAlertRule) {
  return { id: r.id, type: "usage_limit", email_to: (r.extra.emails as string[] | undefined)?.[0] ?? "", percentage: Math.round(r.threshold * 100),
    created_at: unix(r.createdAt), updated_at: unix(r.updatedAt) };
}

function readBody(body: unknown, creating: boolean): { email?: string; percentage?: number } {
  const b = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  if (creating && b.type === "stats_notification") throw bad("type", "stats_notification is not available in postern: its alerts are thresholds (use usage_limit), the stats are at /v3/stats");
  if (creating && b.type !== "usage_limit") throw bad("type", "type must be usage_limit or stats_notification");
  if ((creating || b.email_to !== undefined) && (typeof b.email_to !== "string" || !EMAIL.test(b.email_to))) throw bad("email_to", "email_to must be a valid email address");
  if (b.percentage !== undefined || creating) {
    if (typeof b.percentage !== "number" || !Number.isInteger(b.percentage) || b.percentage < 1 || b.percentage > 100) {
      throw bad("percentage", "percentage is required for usage_limit and must be a whole number from 1 to 100");
    }
  }
  return { email: b.email_to as string | undefined, percentage: b.percentage as number | undefined };
}

export function alertRoutes(deps: Deps) {
  const mine = async () => (await deps.alerts.configured()).filter((r) => r.metric === "usage_limit");
  const one = async (id: string) => (await mine()).find((r) => String(r.id) === id) ?? null;
  const notFound = () => new AppError("not_found", "alert not found", { field: "alert_id" });
  return new Elysia({ name: "sendgrid-alerts" }).use(permissions)
    .get("/v3/alerts", async () => json(200, (await mine()).map(view)), { permission: READ })
    .post("/v3/alerts", async ({ body }) => {
      const { email, percentage } = readBody(body, true);
      const rule = await deps.alerts.createRule({ metric: "usage_limit", threshold: percentage! / 100 }, "sendgrid", { emails: [email] });
      return json(201, view(rule));
    }, { permission: MANAGE })
    .get("/v3/alerts/:alert_id", async ({ params }) => {
      const rule = await one(params.alert_id);
      if (!rule) throw notFound();
      return json(200, view(rule));
    }, { permission: READ })
    .patch("/v3/alerts/:alert_id", async ({ params, body }) => {
      if (!(await one(params.alert_id))) throw notFound();
      const { email, percentage } = readBody(body, false);
      const rule = await deps.alerts.changeRule(params.alert_id, percentage === undefined ? {} : { threshold: percentage / 100 }, email ? { emails: [email] } : undefined);
      return json(200, view(rule!));
    }, { permission: MANAGE })
    .delete("/v3/alerts/:alert_id", async ({ params }) => {
      if (!(await one(params.alert_id)) || !(await deps.alerts.deleteRule(params.alert_id))) throw notFound();
      return new Response(null, { status: 204 });
    }, { permission: MANAGE });
}
