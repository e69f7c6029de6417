// Mailgun routes (/v3/routes, account-wide) and stored messages (/v3/domains/{d}/messages/{key},
// the URL a store() notification carries). Routes are checked and kept by core/inbound/rules.ts.
import type { InboundRule } from "../../core/inbound/model.ts";
import { notFound } from "../../core/errors.ts";
import { routeRecipient } from "../../core/inbound/routes.ts";
import type { SurfaceDeps } from "../deps.ts";
import { principalOf, requireDomainScope } from "../context.ts";
import { readForm, routeGroup, type Form } from "./form.ts";
import { formatDate } from "./model.ts";
import { accountOnly } from "./policy.ts";

const READ = { permission: accountOnly("inbound.read") };
const MANAGE = { permission: accountOnly("inbound.manage") };
const STORED = { permission: { right: "inbound.read" as const, domain: "domain" } };
import { invalid } from "../../core/errors.ts";
import { mailgunStoredJson } from "../../webhooks/inbound/mailgun.ts";
import { parseReceived } from "../../webhooks/inbound/received.ts";

type Deps = Pick<SurfaceDeps, "inboundRules">;

const routeJson = (r: InboundRule<"route">) => ({
  id: r.id, priority: r.spec.priority, description: r.spec.description, expression: r.spec.expression, actions: r.spec.actions,
  created_at: formatDate(r.createdAt),
});

function priorityOf(form: Form): number | undefined {
  const p = form.get("priority");
  if (p === undefined || p === "") return undefined;
  if (!/^\d+$/.test(p.trim())) throw invalid("priority must be a non-negative integer", "priority");
  return Number(p);
}

function specOf(form: Form, partial: boolean) {
  const expression = form.get("expression");
  const actions = form.getAll("action");
  if (!partial && !expression) throw invalid("expression is required", "expression");
  return { priority: priorityOf(form) ?? (partial ? undefined : 0), description: form.get("description") ?? (partial ? undefined : ""),
    expression, actions: actions.length ? actions : partial ? undefined : [] };
}

export function inboundRoutes(deps: Deps) {
  const list = async (request: Request) => (await deps.inboundRules.list(principalOf(request), "route"))
    .sort((a, b) => a.spec.priority - b.spec.priority || a.createdAt - b.createdAt);
  return routeGroup()
    .get("/v3/routes", async ({ request }) => {
      const form = await readForm(request);
      const all = await list(request);
      const skip = Math.max(0, Number(form.get("skip") ?? 0) || 0);
      const limit = Math.min(1000, Math.max(1, Number(form.get("limit") ?? 100) || 100));
      return { total_count: all.length, items: all.slice(skip, skip + limit).map(routeJson) };
    }, READ)
    .get("/v3/routes/match", async ({ request }) => {
      const address = (await readForm(request)).get("address")?.trim();
      if (!address) throw invalid("address is required", "address");
      const routes = await list(request);
      const hit = routeRecipient(routes.map((r) => ({ ...r.spec, id: r.id, createdAt: r.createdAt })), address, () => [])[0];
      const route = hit && routes.find((r) => r.id === hit.routeId);
      if (!route) throw notFound("Route not found");
      return { route: routeJson(route) };
    }, READ)
    .get("/v3/routes/:id", async ({ params, request }) => ({ route: routeJson(await deps.inboundRules.get(principalOf(request), "route", params.id)) }), READ)
    .post("/v3/routes", async ({ request }) => {
      const s = specOf(await readForm(request), false);
      const r = await deps.inboundRules.createRoute(principalOf(request), { priority: s.priority!, description: s.description!, expression: s.expression!, actions: s.actions! });
      return { message: "Route has been created", route: routeJson(r) };
    }, MANAGE)
    .put("/v3/routes/:id", async ({ params, request }) => {
      const r = await deps.inboundRules.updateRoute(principalOf(request), params.id, specOf(await readForm(request), true));
      return { message: "Route has been updated", ...routeJson(r) };
    }, MANAGE)
    // A stored message as Mailgun's Messages API gives it: JSON fields, or the MIME with Accept: message/rfc2822.
    .get("/v3/domains/:domain/messages/:key", async ({ params, request }) => {
      const m = await deps.inboundRules.stored(requireDomainScope(request, params.domain), params.domain, params.key);
      const url = new URL(request.url);
      const rcpt = m.envelope.rcptTo[0] ?? "";
      if ((request.headers.get("accept") ?? "").includes("message/rfc2822")) {
        const mail = await parseReceived(m.raw);
        return { recipients: m.envelope.rcptTo.join(", "), sender: m.envelope.mailFrom, from: mail.from, subject: mail.subject, "body-mime": new TextDecoder().decode(m.raw) };
      }
      return mailgunStoredJson(m.envelope, await parseReceived(m.raw), rcpt, `${url.origin}${url.pathname}`);
    }, STORED)
    .delete("/v3/routes/:id", async ({ params, request }) => {
      await deps.inboundRules.remove(principalOf(request), "route", params.id);
      return { message: "Route has been deleted", id: params.id };
    }, MANAGE);
}
