// SendGrid Inbound Parse settings (/v3/user/webhooks/parse/settings[/{hostname}]): where mail for
// a hostname is posted, parsed or raw. Kept by core/inbound/rules.ts; a domain key manages only
// hostnames of its own domain.
import { Elysia } from "elysia";
import type { InboundRule } from "../../core/inbound/model.ts";
import { invalid } from "../../core/errors.ts";
import type { SurfaceDeps } from "../deps.ts";
import { principalOf } from "../context.ts";
import { json } from "../errors.ts";
import { readJsonBody } from "./body.ts";
import { isObject } from "./fields.ts";
import { permissions } from "../permission.ts";

const READ = { permission: { right: "inbound.read" as const } };
const MANAGE = { permission: { right: "inbound.manage" as const } };

const MAX_BODY = 16 * 1024;
const BASE = "/v3/user/webhooks/parse/settings";

const settingJson = (r: InboundRule<"parse-setting">) =>
  ({ url: r.spec.url, hostname: r.spec.hostname, spam_check: r.spec.spamCheck, send_raw: r.spec.sendRaw });

function flag(v: unknown, field: string): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw invalid(`${field} must be a boolean`, field);
  return v;
}

function text(v: unknown, field: string): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "string" || !v.trim()) throw invalid(`${field} is required`, field);
  return v.trim();
}

async function bodyOf(request: Request) {
  const body = await readJsonBody(request, MAX_BODY);
  if (!isObject(body)) throw invalid("The request body must be a JSON object.");
  return { url: text(body.url, "url"), hostname: text(body.hostname, "hostname"), spamCheck: flag(body.spam_check, "spam_check"), sendRaw: flag(body.send_raw, "send_raw") };
}

export function parseSettingRoutes(deps: Pick<SurfaceDeps, "inboundRules">) {
  const rules = deps.inboundRules;
  return new Elysia().use(permissions)
    .get(BASE, async ({ request }) => ({ result: (await rules.list(principalOf(request), "parse-setting")).map(settingJson) }), READ)
    .post(BASE, async ({ request }) => {
      const b = await bodyOf(request);
      if (!b.hostname) throw invalid("hostname is required", "hostname");
      if (!b.url) throw invalid("url is required", "url");
      const r = await rules.putParseSetting(principalOf(request), { hostname: b.hostname, url: b.url, spamCheck: b.spamCheck ?? false, sendRaw: b.sendRaw ?? false }, true);
      return json(201, settingJson(r));
    }, { parse: "none", ...MANAGE })
    .get(`${BASE}/:hostname`, async ({ params, request }) => settingJson(await rules.get(principalOf(request), "parse-setting", params.hostname.toLowerCase())), READ)
    .patch(`${BASE}/:hostname`, async ({ params, request }) => {
      const p = principalOf(request);
      const old = await rules.get(p, "parse-setting", params.hostname.toLowerCase());
      const b = await bodyOf(request);
      const r = await rules.putParseSetting(p, { hostname: old.spec.hostname, url: b.url ?? old.spec.url, spamCheck: b.spamCheck ?? old.spec.spamCheck,
        sendRaw: b.sendRaw ?? old.spec.sendRaw }, false);
      return settingJson(r);
    }, { parse: "none", ...MANAGE })
    .delete(`${BASE}/:hostname`, async ({ params, request }) => {
      await rules.remove(principalOf(request), "parse-setting", params.hostname.toLowerCase());
      return new Response(null, { status: 204 });
    }, MANAGE);
}
