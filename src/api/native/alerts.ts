// GET /alerts (the built-in and configured rules, and the open alerts), POST /alerts (a configured
// rule: {"metric","threshold","window","min_volume","domain"}), DELETE /alerts/{id}. Account keys
// only: alerts are the installation's (docs/alerts.md).
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { permissions } from "../permission.ts";
import { AppError } from "../../core/errors.ts";
import { ruleView } from "../../alerts/rule-input.ts";
import { readForm, textOf } from "./model.ts";

type Deps = Pick<SurfaceDeps, "alerts">;

const FIELDS = ["metric", "threshold", "window", "min_volume", "domain"] as const;

export function alertRoutes(deps: Deps) {
  return new Elysia({ name: "native-alerts" }).use(permissions)
    .get("/alerts", async () => ({ rules: await deps.alerts.ruleViews(), alerts: await deps.alerts.incidents(true) }),
      { permission: { right: "alerts.read", keys: "account" } })
    .post("/alerts", async ({ request }) => {
      const fields = await readForm(request);
      const input = Object.fromEntries(FIELDS.map((f) => [f, textOf(fields, f)]));
      const rule = await deps.alerts.createRule(input, "native");
      return { message: "Alert rule created", rule: ruleView(rule) };
    }, { parse: "none", permission: { right: "alerts.manage", keys: "account" } })
    .delete("/alerts/:id", async ({ params }) => {
      if (!(await deps.alerts.deleteRule(params.id))) throw new AppError("not_found", `alert rule ${params.id} not found (built-in rules cannot be deleted)`);
      return { message: "Alert rule deleted", id: params.id };
    }, { permission: { right: "alerts.manage", keys: "account" } });
}
