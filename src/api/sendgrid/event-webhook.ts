// SendGrid's Event Webhook: GET/PATCH /v3/user/webhooks/event/settings (enabled, url, the event
// switches, OAuth), GET/PATCH …/settings/signed (the public key of the ECDSA signatures every post
// carries), POST …/event/test. A domain key configures its domain's webhook, an account key the
// account-wide one of the tenant it acts for (on-behalf-of); events reach it without any callback_url.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { Principal } from "../../core/model.ts";
import type { Issue } from "../../core/errors.ts";
import { invalid, invalidMany } from "../../core/errors.ts";
import { json } from "../errors.ts";
import { principalOf } from "../context.ts";
import { permissions } from "../permission.ts";
import { readJsonBody } from "./body.ts";
import { isObject, readBoolean, readString } from "./fields.ts";
import { createEventWebhookSettings, SG_EVENT_SWITCHES, type EventWebhookSettings, type SettingsPatch } from "../../webhooks/formats/sendgrid-settings.ts";
import { FORMAT } from "../../webhooks/registry.ts";

const MAX_BODY_BYTES = 64 * 1024;
const BASE = "/v3/user/webhooks/event";

type Deps = Pick<SurfaceDeps, "webhooks" | "outbound" | "eventWebhookPublicKey">;

const domainOf = (p: Principal) => (p.kind === "domain" && p.domain ? p.domain.id : null);
const scopeOf = (p: Principal) => ({ domainId: domainOf(p), tenantId: p.tenant ?? 0 });

function view(id: string | null, s: EventWebhookSettings) {
  return {
    enabled: s.enabled, url: s.url, ...Object.fromEntries(SG_EVENT_SWITCHES.map((k) => [k, s.types.includes(k)])),
    account_status_change: false, friendly_name: s.friendlyName, id, oauth_client_id: s.oauth?.clientId ?? null, oauth_token_url: s.oauth?.tokenUrl ?? null,
  };
}

function readPatch(body: unknown, current: EventWebhookSettings): SettingsPatch {
  if (!isObject(body)) throw invalid("The request body must be a JSON object.");
  const issues: Issue[] = [];
  const patch: SettingsPatch = {};
  const enabled = readBoolean(body.enabled, "enabled", issues);
  if (enabled !== undefined) patch.enabled = enabled;
  const url = readString(body.url, "url", issues);
  if (url !== undefined) patch.url = url.trim();
  const friendly = readString(body.friendly_name, "friendly_name", issues);
  if (friendly !== undefined) patch.friendlyName = friendly;
  const types = new Set(current.types);
  for (const k of SG_EVENT_SWITCHES) {
    const on = readBoolean(body[k], k, issues);
    if (on === true) types.add(k);
    if (on === false) types.delete(k);
  }
  patch.types = SG_EVENT_SWITCHES.filter((k) => types.has(k));
  const tokenUrl = readString(body.oauth_token_url, "oauth_token_url", issues);
  const clientId = readString(body.oauth_client_id, "oauth_client_id", issues);
  const secret = readString(body.oauth_client_secret, "oauth_client_secret", issues);
  if (tokenUrl !== undefined) patch.oauth = tokenUrl ? { tokenUrl, clientId: clientId ?? current.oauth?.clientId ?? "", clientSecret: secret ?? current.oauth?.clientSecret ?? "" } : null;
  if ((patch.enabled ?? current.enabled) && !(patch.url ?? current.url)) issues.push({ field: "url", message: "url is required when the Event Webhook is enabled" });
  if (issues.length) throw invalidMany(issues);
  return patch;
}

async function checkUrl(deps: Deps, url: string | undefined) {
  if (!url) return;
  if (!/^https?:\/\/\S+$/i.test(url)) throw invalid("url must be an http or https URL", "url");
  const refused = await deps.outbound.check(url);
  if (refused) throw invalid(`url refused: ${refused}`, "url");
}

const READ = { right: "webhooks.read" } as const;
const MANAGE = { right: "webhooks.manage" } as const;

export function eventWebhookRoutes(deps: Deps) {
  const settings = createEventWebhookSettings({ webhooks: deps.webhooks });
  const publicKey = () => json(200, { public_key: deps.eventWebhookPublicKey });

  return new Elysia({ name: "sendgrid-event-webhook" }).use(permissions)
    .get(`${BASE}/settings`, async ({ request }) => {
      const { id, settings: s } = await settings.get(scopeOf(principalOf(request)));
      return json(200, view(id, s));
    }, { permission: READ })
    .patch(`${BASE}/settings`, async ({ request }) => {
      const scope = scopeOf(principalOf(request));
      const patch = readPatch(await readJsonBody(request, MAX_BODY_BYTES), (await settings.get(scope)).settings);
      await checkUrl(deps, patch.url);
      const { id, settings: s } = await settings.update(scope, patch);
      return json(200, view(id, s));
    }, { permission: MANAGE, parse: "none" })
    // Every post is signed (ECDSA P-256 over timestamp + body): the switch is kept and read back.
    .get(`${BASE}/settings/signed`, publicKey, { permission: READ })
    .patch(`${BASE}/settings/signed`, async ({ request }) => {
      const body = await readJsonBody(request, MAX_BODY_BYTES);
      const issues: Issue[] = [];
      const enabled = readBoolean(isObject(body) ? body.enabled : undefined, "enabled", issues);
      if (enabled === undefined && !issues.length) issues.push({ field: "enabled", message: "enabled is required" });
      if (issues.length) throw invalidMany(issues);
      const scope = scopeOf(principalOf(request));
      if ((await settings.get(scope)).settings.url) await settings.update(scope, { signed: enabled });
      return publicKey();
    }, { permission: MANAGE, parse: "none" })
    .post(`${BASE}/test`, async ({ request }) => {
      const body = await readJsonBody(request, MAX_BODY_BYTES);
      const p = principalOf(request);
      const issues: Issue[] = [];
      const url = readString(isObject(body) ? body.url : undefined, "url", issues)?.trim();
      if (!url && !issues.length) issues.push({ field: "url", message: "url is required" });
      if (issues.length) throw invalidMany(issues);
      await checkUrl(deps, url);
      const b = body as Record<string, unknown>;
      const extra = typeof b.oauth_token_url === "string" && b.oauth_token_url
        ? { oauth_token_url: b.oauth_token_url, oauth_client_id: b.oauth_client_id, oauth_client_secret: b.oauth_client_secret } : {};
      try {
        await deps.outbound.ping(FORMAT.sendgrid, { url: url!, domain: p.domain?.name ?? "", target: { id: "", domainId: domainOf(p), events: [], url: url!, format: FORMAT.sendgrid, extra, createdAt: 0 } });
      } catch (err) {
        throw invalid(`the test post to ${url} failed: ${(err as Error).message}`, "url");
      }
      return new Response(null, { status: 204 });
    }, { permission: MANAGE, parse: "none" });
}
