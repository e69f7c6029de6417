// Sending to a mailing list address: the address is replaced by the list's subscribed members,
// each getting its own copy with the member's vars as %recipient.<var>% (batch sending), and
// %mailing_list_unsubscribe_url% as that member's own link, which unsubscribes them from the list.
import type { Principal, SendRequest } from "../../core/model.ts";
import type { StoredList } from "../../core/list-model.ts";
import { allMembers } from "../../core/list-service.ts";
import type { SurfaceDeps } from "../deps.ts";
import { parseAddressList } from "../../core/address/address.ts";
import { Form } from "./form.ts";
import { MAX_RECIPIENTS } from "./mapper.ts";
import { invalid } from "../../core/errors.ts";

type Deps = Pick<SurfaceDeps, "lists" | "codec" | "config">;
export const LIST_UNSUBSCRIBE_TAG = "%mailing_list_unsubscribe_url%";

export interface Expanded {
  form: Form;
  /** Member address → that member's list-unsubscribe URL. */
  links: Map<string, string>;
}

/** The form with list addresses in `to` expanded, or null when it names no list the caller may use. */
export async function expandLists(form: Form, principal: Principal, domainId: number, deps: Deps): Promise<Expanded | null> {
  const kept: string[] = [];
  const lists: StoredList[] = [];
  for (const value of form.getAll("to")) {
    for (const a of parseAddressList(value, { shouldCheckSyntax: false }).parsed) {
      const l = await deps.lists.findAddress(a.email);
      // Only the sending domain's lists, unless the account key sends (Mailgun's lists are the account's), never another tenant's.
      if (l && l.tenantId === (principal.tenant ?? 0) && (principal.kind === "account" || l.domainId === domainId)) lists.push(l);
      else kept.push(a.name ? `"${a.name.replace(/["\\]/g, "")}" <${a.email}>` : a.email);
    }
  }
  if (!lists.length) return null;
  const vars: Record<string, Record<string, unknown>> = JSON.parse(form.get("recipient-variables") || "{}");
  const links = new Map<string, string>();
  const base = deps.config.server.public_url.replace(/\/+$/, "");
  for (const l of lists) {
    for (const m of await allMembers(deps.lists, l, true)) {
      if (links.has(m.address)) continue;
      kept.push(m.name ? `"${m.name.replace(/["\\]/g, "")}" <${m.address}>` : m.address);
      vars[m.address] = { ...m.vars, ...vars[m.address] };
      const token = deps.codec.sign({ kind: "list-unsubscribe", messageId: l.id, recipientId: m.address, domain: l.id.split("@")[1]! });
      links.set(m.address, `${base}/t/l/${token}`);
    }
  }
  if (kept.length > MAX_RECIPIENTS) throw invalid(`Too many recipients, max is ${MAX_RECIPIENTS}`, "to");
  const fields = new Map(form.keys().map((k) => [k, [...form.values(k)]]));
  fields.set("to", kept);
  fields.set("recipient-variables", [JSON.stringify(vars)]);
  return { form: new Form(fields, form.json), links };
}

/** Fills each member's own %mailing_list_unsubscribe_url% in bodies and headers. */
export function fillListLinks(req: SendRequest, links: Map<string, string>): SendRequest {
  for (const e of req.envelopes) {
    const link = e.to.length === 1 ? links.get(e.to[0]!.email.toLowerCase()) : undefined;
    if (!link) continue;
    const put = (s: string | undefined) => s?.split(LIST_UNSUBSCRIBE_TAG).join(link);
    e.text = put(e.text);
    e.html = put(e.html);
    if (e.headers) e.headers = Object.fromEntries(Object.entries(e.headers).map(([k, v]) => [k, put(v)!]));
  }
  return req;
}
