// Console: a domain's webhook targets of every format (Mailgun, native, SendGrid, SparkPost), add,
// remove and Test (the format's own ping through webhooks/outbound.ts). Targets are the same WebhookTargets the API surfaces create and the event
// pipeline delivers to; a Mailgun/native target is stored as those surfaces store one (one type).
import { Elysia } from "elysia";
import type { WebhookTarget } from "../../core/store-port.ts";
import { invalid, notFound } from "../../core/errors.ts";
import { WEBHOOK_TYPES } from "../native/webhook-types.ts";
import type { ConsoleDeps } from "./deps.ts";
import { permissions } from "../permission.ts";
import { domainFor, field, requiredField } from "./policy.ts";
import { FORMAT, isMailgunShaped } from "../../webhooks/registry.ts";

const FORMATS: WebhookTarget["format"][] = [FORMAT.mailgun, FORMAT.native, FORMAT.sendgrid, FORMAT.sparkpost];

const view = (w: WebhookTarget) => ({
  id: w.id, format: w.format, url: w.url, accountWide: w.domainId === null,
  events: typeof (w.extra.mailgunId ?? w.extra.webhookType) === "string" ? [String(w.extra.mailgunId ?? w.extra.webhookType)] : w.events,
  createdAt: w.createdAt,
});

function eventsOf(body: unknown, format: WebhookTarget["format"]): { events: string[]; extra: Record<string, unknown> } {
  const raw = (body as { events?: unknown } | null)?.events ?? [];
  if (!Array.isArray(raw) || raw.some((e) => typeof e !== "string" || !Object.hasOwn(WEBHOOK_TYPES, e))) {
    throw invalid(`events must be a list of: ${Object.keys(WEBHOOK_TYPES).join(", ")}`, "events");
  }
  const types = raw as string[];
  if (isMailgunShaped(format)) {
    // The Mailgun and native APIs keep one type per target: the console does the same.
    if (types.length !== 1) throw invalid("a Mailgun or native webhook has exactly one event type", "events");
    return { events: [WEBHOOK_TYPES[types[0]!]!], extra: { mailgunId: types[0] } };
  }
  return { events: types.map((t) => WEBHOOK_TYPES[t]!), extra: {} };
}

export function webhookRoutes(deps: ConsoleDeps) {
  async function targetOf(request: Request, name: string, id: string) {
    const { domain, principal } = await domainFor(request, deps.domains, name);
    const target = (await deps.webhooks.list(domain.id)).find((w) => w.id === id && (w.domainId === domain.id || principal.kind === "account"));
    if (!target) throw notFound(`webhook ${id} not found`);
    return { domain, target };
  }
  return new Elysia({ prefix: "/ui/api" }).use(permissions)
    .get("/domains/:domain/webhooks", async ({ request, params }) => {
      const { domain } = await domainFor(request, deps.domains, params.domain);
      return { formats: FORMATS, types: Object.keys(WEBHOOK_TYPES), targets: (await deps.webhooks.list(domain.id)).map(view) };
    }, { permission: { right: "webhooks.read", domain: "domain" } })
    .post("/domains/:domain/webhooks", async ({ request, params, body }) => {
      const { domain } = await domainFor(request, deps.domains, params.domain);
      const format = field(body, "format") as WebhookTarget["format"];
      if (!FORMATS.includes(format)) throw invalid(`format must be one of ${FORMATS.join(", ")}`, "format");
      const url = requiredField(body, "url");
      const refused = /^https?:\/\//i.test(url) ? await deps.outbound.check(url) : null;
      if (refused) throw invalid(`${url}: ${refused}`, "url");
      return view(await deps.webhooks.create({ domainId: domain.id, url, format, ...eventsOf(body, format) }));
    }, { permission: { right: "webhooks.manage", domain: "domain" } })
    .delete("/domains/:domain/webhooks/:id", async ({ request, params }) => {
      const { target } = await targetOf(request, params.domain, params.id);
      await deps.webhooks.remove(target.id);
      return { message: "removed" };
    }, { permission: { right: "webhooks.manage", domain: "domain" } })
    .post("/domains/:domain/webhooks/:id/test", async ({ request, params }) => {
      const { domain, target } = await targetOf(request, params.domain, params.id);
      // The format's own test POST (webhooks/formats/*): a signed sample, with the target's auth.
      try {
        const res = await deps.outbound.ping(target.format, { url: target.url, domain: domain.name, target });
        return { status: res.status, answer: res.body.slice(0, 2000) };
      } catch (err) {
        return { status: 0, answer: (err as Error)?.message ?? String(err) };
      }
    }, { permission: { right: "webhooks.manage", domain: "domain" } });
}
