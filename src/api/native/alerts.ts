// GET /alerts (the built-in and configured rules, and the open alerts), POST /alerts (a configured
// rule: {"metric","threshold","window","min_volume","domain"}), DELETE /alerts/{id}. The primary's
// account keys acting for themselves only: alerts are the installation's (docs/alerts.md), over every tenant's domains.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { permissions } from "../permission.ts";
import { primaryOnly } from "../../core/permissions.ts";
import { AppError } from "../../core/errors.ts";
import { ruleView } from "../../alerts/rule-input.ts";
import { readForm, textOf } from "./model.ts";

type Deps = Pick<SurfaceDeps, "alerts">;

const FIELDS = ["metric", "threshold", "window", "min_volume", "domain"] as const;

export function alertRoutes(deps: Deps) {
  return new Elysia({ name: "native-alerts" }).use(permissions)
    .get("/alerts", async () => ({ rules: await deps.alerts.ruleViews(), alerts: await deps.alerts.incidents(true) }),
      { permission: primaryOnly("alerts.read") })
    .post("/alerts", async ({ request }) => {
      const fields = await readForm(request);
      const input = Object.fromEntries(FIELDS.map((f) => [f, textOf(fields, f)]));
      const rule = await deps.alerts.createRule(input, "native");
      return { message: "Alert rule created", rule: ruleView(rule) };
    }, { parse: "none", permission: primaryOnly("alerts.manage") })
    .delete("/alerts/:id", async ({ params }) => {
      if (!(await deps.alerts.deleteRule(params.id))) throw new AppError("not_found", `alert rule ${params.id} not found (built-in rules cannot be deleted)`);
      return { message: "Alert rule deleted", id: params.id };
    }, { permission: primaryOnly("alerts.manage") });
}
