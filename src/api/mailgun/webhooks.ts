// Domain webhooks (/v3/domains/{d}/webhooks) with Mailgun's ids. Each URL is stored as its own
// WebhookTarget{format:"mailgun", events:[native type], extra:{mailgunId}}, at most 3 per id;
// delivering events to them is webhooks/'s job. Account key only (policy.ts).
import type { Domain } from "../../core/model.ts";
import type { WebhookTarget } from "../../core/store-port.ts";
import { AppError, invalid, notFound } from "../../core/errors.ts";
import type { SurfaceDeps } from "../deps.ts";
import { readForm, routeGroup } from "./form.ts";
import { accountOnly } from "./policy.ts";
import { MAX_WEBHOOK_URLS, WEBHOOK_EVENTS, webhookId } from "./model.ts";
import { FORMAT, isMailgunShaped } from "../../webhooks/registry.ts";

type Deps = Pick<SurfaceDeps, "webhooks" | "domains">;

// Native-API webhooks are Mailgun-format targets too (older ones stored the type as webhookType).
const mailgunIdOf = (w: WebhookTarget) => String(w.extra.mailgunId ?? w.extra.webhookType ?? "");

/** The form's `url` values: 1 to 3 distinct http(s) URLs. */
function urlsOf(values: string[]): string[] {
  const urls = [...new Set(values.map((u) => u.trim()).filter(Boolean))];
  if (urls.length === 0) throw invalid("url parameter is missing", "url");
  if (urls.length > MAX_WEBHOOK_URLS) throw invalid(`at most ${MAX_WEBHOOK_URLS} urls per webhook`, "url");
  for (const u of urls) if (!/^https?:\/\/[^\s]+$/i.test(u)) throw invalid(`"${u}" is not an http or https URL`, "url");
  return urls;
}

export function webhookRoutes(deps: Deps) {
  const targetsOf = async (d: Domain, id?: string) =>
    (await deps.webhooks.list(d.id)).filter((w) => w.domainId === d.id && isMailgunShaped(w.format) && (!id || mailgunIdOf(w) === id));
  const requireTargets = async (d: Domain, id: string) => {
    const found = await targetsOf(d, id);
    if (!found.length) throw notFound("Webhook not found");
    return found;
  };
  const createAll = (d: Domain, id: string, urls: string[]) => Promise.all(urls.map((url) =>
    deps.webhooks.create({ domainId: d.id, events: [WEBHOOK_EVENTS[id]!], url, format: FORMAT.mailgun, extra: { mailgunId: id } })));
  const removeAll = (targets: WebhookTarget[]) => Promise.all(targets.map((t) => deps.webhooks.remove(t.id)));

  return routeGroup()
    .get("/v3/domains/:domain/webhooks", async ({ params, request }) => {
      const webhooks: Record<string, { urls: string[] }> = {};
      for (const t of await targetsOf(await deps.domains.require(params.domain))) (webhooks[mailgunIdOf(t)] ??= { urls: [] }).urls.push(t.url);
      return { webhooks };
    }, { permission: accountOnly("webhooks.read") })
    .get("/v3/domains/:domain/webhooks/:id", async ({ params, request }) => {
      const targets = await requireTargets(await deps.domains.require(params.domain), webhookId(params.id));
      return { webhook: { urls: targets.map((t) => t.url) } };
    }, { permission: accountOnly("webhooks.read") })
    .post("/v3/domains/:domain/webhooks", async ({ params, request }) => {
      const form = await readForm(request);
      const [d, id, urls] = [await deps.domains.require(params.domain), webhookId(form.get("id")), urlsOf(form.getAll("url"))];
      if ((await targetsOf(d, id)).length) throw new AppError("invalid", "Webhook already exists", { field: "id" });
      await createAll(d, id, urls);
      return { message: "Webhook has been created", webhook: { urls } };
    }, { permission: accountOnly("webhooks.manage") })
    .put("/v3/domains/:domain/webhooks/:id", async ({ params, request }) => {
      const [d, id, urls] = [await deps.domains.require(params.domain), webhookId(params.id), urlsOf((await readForm(request)).getAll("url"))];
      const old = await requireTargets(d, id);
      await createAll(d, id, urls);
      await removeAll(old);
      return { message: "Webhook has been updated", webhook: { urls } };
    }, { permission: accountOnly("webhooks.manage") })
    .delete("/v3/domains/:domain/webhooks/:id", async ({ params, request }) => {
      const targets = await requireTargets(await deps.domains.require(params.domain), webhookId(params.id));
      await removeAll(targets);
      return { message: "Webhook has been deleted", webhook: { urls: targets.map((t) => t.url) } };
    }, { permission: accountOnly("webhooks.manage") });
}
