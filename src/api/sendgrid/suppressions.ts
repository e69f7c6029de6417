// SendGrid's suppression lists: /v3/suppression/{bounces,blocks,spam_reports,invalid_emails,
// unsubscribes} and the global unsubscribes of /v3/asm/suppressions/global, on postern's lists
// (bounces, complaints, unsubscribes without tags) and the report-only lists delivery outcomes fill
// (blocks: mail a receiver refused for anything but the address; invalid: addresses found bad).
// A domain key acts on its domain; an account key on every domain (SendGrid's lists are
// account-wide). Bounces, spam reports and unsubscribes are the ones the send path honours.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { Principal } from "../../core/model.ts";
import type { Suppression } from "../../core/store-port.ts";
import { invalid } from "../../core/errors.ts";
import { json } from "../errors.ts";
import { principalOf } from "../context.ts";
import { readTenant } from "../../core/permissions.ts";
import { permissions } from "../permission.ts";
import { readJsonBody } from "./body.ts";
import { isObject } from "./fields.ts";

type Deps = Pick<SurfaceDeps, "suppressions" | "domains">;

const READ = { right: "suppressions.read" } as const;
const MANAGE = { right: "suppressions.manage" } as const;
const MAX_BODY_BYTES = 1024 * 1024;
const MAX_LIST = 500;

/** SendGrid list name → postern list. */
const LISTS: Record<string, "bounces" | "complaints" | "unsubscribes" | "blocks" | "invalid"> = {
  bounces: "bounces", blocks: "blocks", spam_reports: "complaints", invalid_emails: "invalid", unsubscribes: "unsubscribes",
};

const secs = (ms: number) => Math.floor(ms / 1000);
/** Only global unsubscribes: a tag-scoped (Mailgun) entry is not one. */
const isGlobal = (s: Suppression) => s.type !== "unsubscribes" || s.code.split(",").every((t) => !t.trim() || t.trim() === "*");

function item(list: string, s: Suppression) {
  if (list === "spam_reports") return { created: secs(s.createdAt), email: s.address, ip: "" };
  if (list === "unsubscribes") return { created: secs(s.createdAt), email: s.address };
  if (list === "invalid_emails") return { created: secs(s.createdAt), email: s.address, reason: s.reason };
  return { created: secs(s.createdAt), email: s.address, reason: s.reason, status: /^\d\.\d+\.\d+$/.test(s.code) ? s.code : s.code ? `${s.code[0]}.0.0` : "" };
}

export function suppressionRoutes(deps: Deps) {
  async function domainsOf(p: Principal): Promise<string[]> {
    if (p.kind === "domain" && p.domain) return [p.domain.name];
    return (await deps.domains.listServed(readTenant(p))).map((d) => d.name);
  }
  async function entries(p: Principal, type: string, email?: string): Promise<Suppression[]> {
    const all: Suppression[] = [];
    for (const d of await domainsOf(p)) {
      if (email) { const s = await deps.suppressions.get(d, type, email); if (s) all.push(s); }
      else all.push(...await deps.suppressions.list(d, { type, limit: 100_000 }));
    }
    return all.filter(isGlobal);
  }
  async function read(list: string, request: Request, email?: string) {
    const type = LISTS[list];
    if (type === undefined) return json(404, { errors: [{ field: null, message: "resource not found" }] });
    const q = new URL(request.url).searchParams;
    const start = Number(q.get("start_time") ?? 0) * 1000;
    const end = q.get("end_time") ? Number(q.get("end_time")) * 1000 : Infinity;
    const limit = Math.min(Math.max(Number(q.get("limit") ?? MAX_LIST) || MAX_LIST, 1), MAX_LIST);
    const offset = Math.max(Number(q.get("offset") ?? 0) || 0, 0);
    const wanted = email ?? q.get("email") ?? undefined;
    const found = await entries(principalOf(request), type, wanted);
    const picked = found.filter((s) => s.createdAt >= start && s.createdAt <= end).sort((a, b) => b.createdAt - a.createdAt || a.address.localeCompare(b.address));
    return json(200, picked.slice(offset, offset + limit).map((s) => item(list, s)));
  }
  async function remove(list: string, request: Request, email?: string) {
    const type = LISTS[list];
    if (type === undefined) return json(404, { errors: [{ field: null, message: "resource not found" }] });
    const p = principalOf(request);
    let emails: string[] | "all";
    if (email) emails = [email];
    else {
      const body = request.headers.get("content-length") === "0" ? {} : await readJsonBody(request, MAX_BODY_BYTES).catch(() => ({}));
      const b = isObject(body) ? body : {};
      if (b.delete_all === true) emails = "all";
      else if (Array.isArray(b.emails) && b.emails.every((e) => typeof e === "string")) emails = b.emails as string[];
      else throw invalid("give delete_all: true or an emails array", "emails");
    }
    for (const s of await entries(p, type)) if (emails === "all" || emails.some((e) => e.toLowerCase() === s.address)) await deps.suppressions.remove(s.domain, type, s.address);
    return new Response(null, { status: 204 });
  }
  async function addGlobal(request: Request) {
    const body = await readJsonBody(request, MAX_BODY_BYTES);
    const emails = isObject(body) && Array.isArray(body.recipient_emails) ? body.recipient_emails : null;
    if (!emails || !emails.length || !emails.every((e) => typeof e === "string")) throw invalid("recipient_emails must be a non-empty array of email addresses", "recipient_emails");
    for (const d of await domainsOf(principalOf(request))) {
      await deps.suppressions.add(d, "unsubscribes", (emails as string[]).map((address) => ({ address, reason: "global unsubscribe (API)" })));
    }
    return json(201, { recipient_emails: emails });
  }

  return new Elysia({ name: "sendgrid-suppressions" }).use(permissions)
    .get("/v3/suppression/:list", ({ params, request }) => read(params.list, request), { permission: READ })
    .get("/v3/suppression/:list/:email", ({ params, request }) => read(params.list, request, params.email), { permission: READ })
    .delete("/v3/suppression/:list", ({ params, request }) => remove(params.list, request), { parse: "none", permission: MANAGE })
    .delete("/v3/suppression/:list/:email", ({ params, request }) => remove(params.list, request, params.email), { permission: MANAGE })
    .get("/v3/asm/suppressions/global/:email", async ({ params, request }) => {
      const email = params.email;
      const found = await entries(principalOf(request), "unsubscribes", email);
      return json(200, found.length ? { recipient_email: email } : {});
    }, { permission: READ })
    .post("/v3/asm/suppressions/global", ({ request }) => addGlobal(request), { parse: "none", permission: MANAGE })
    .delete("/v3/asm/suppressions/global/:email", ({ params, request }) => remove("unsubscribes", request, params.email), { permission: MANAGE });
}
