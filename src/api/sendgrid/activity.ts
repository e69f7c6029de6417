// SendGrid's Email Activity API: GET /v3/messages?query=… and GET /v3/messages/{msg_id}. A msg_id
// may be what the send answered (X-Message-Id: every recipient of the send) or an event's
// sg_message_id (`<X-Message-Id>.filter…`: that one recipient), so a client can use either.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { StoredMessage, StoredRecipient } from "../../core/store-port.ts";
import { invalid, notFound } from "../../core/errors.ts";
import { json } from "../errors.ts";
import { principalOf } from "../context.ts";
import { permissions } from "../permission.ts";
import { parseSgMessageId, sgMessageIdOf } from "../../webhooks/formats/sendgrid.ts";

type Deps = Pick<SurfaceDeps, "activity">;
const READ = { right: "events.read" } as const;
const STATUS: Record<StoredRecipient["status"], string> = { queued: "processing", deferred: "processing", delivered: "delivered",
  test: "delivered", failed: "not_delivered", suppressed: "not_delivered" };

/** `msg_id="a" AND to_email="b"`: SendGrid's query language, the equality clauses postern filters on. */
export function parseActivityQuery(q: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const clause of q.split(/\s+AND\s+/i).map((c) => c.trim()).filter(Boolean)) {
    const m = /^(msg_id|to_email|from_email|subject|status|outbound_ip)\s*=\s*"([^"]*)"$/.exec(clause);
    if (!m) throw invalid(`unsupported query clause: ${clause} (supported: msg_id, to_email, from_email, subject, status, outbound_ip with =, joined by AND)`, "query");
    out[m[1]!] = m[2]!;
  }
  return out;
}

type Row = { message: StoredMessage; recipient: StoredRecipient };
const summary = ({ message, recipient }: Row) => ({ from_email: message.from, msg_id: sgMessageIdOf(message.sendId, message.id, recipient.id),
  subject: message.subject, to_email: recipient.email, status: STATUS[recipient.status], opens_count: 0, clicks_count: 0,
  last_event_time: new Date(recipient.updatedAt).toISOString() });

export function activityRoutes(deps: Deps) {
  /** The recipients a msg_id names, in the caller's domain. */
  async function rowsOf(domain: string, msgId: string): Promise<Row[]> {
    const id = parseSgMessageId(msgId);
    const send = await deps.activity.send(domain, id.sendId);
    const rows = (send?.messages ?? []).flatMap(({ message, recipients }) => recipients.map((recipient) => ({ message, recipient })));
    return rows.filter((r) => (!id.messageId || r.message.id === id.messageId) && (!id.recipientId || r.recipient.id === id.recipientId));
  }
  const domainOf = (request: Request) => {
    const d = principalOf(request).domain?.name;
    if (!d) throw invalid("the Email Activity API reads one domain: use that domain's key");
    return d;
  };
  return new Elysia({ name: "sendgrid-activity" }).use(permissions)
    .get("/v3/messages", async ({ request, query }) => {
      const filter = parseActivityQuery(String(query.query ?? ""));
      const limit = Math.min(Math.max(Number(query.limit ?? 10) || 10, 1), 1000);
      if (!filter.msg_id) throw invalid("query must name a msg_id (the X-Message-Id of a send or an event's sg_message_id)", "query");
      const matches = (r: Row) => {
        const m = summary(r);
        const field = (k: string) => (k === "outbound_ip" ? r.recipient.sourceIp ?? "" : String(m[k as keyof typeof m]));
        return Object.entries(filter).every(([k, v]) => k === "msg_id" || field(k) === v);
      };
      const rows = (await rowsOf(domainOf(request), filter.msg_id)).filter(matches).map(summary);
      return json(200, { messages: rows.slice(0, limit) });
    }, { permission: READ })
    .get("/v3/messages/:msgId", async ({ request, params }) => {
      const domain = domainOf(request);
      const rows = await rowsOf(domain, params.msgId);
      if (rows.length === 0) throw notFound("message not found");
      const first = rows[0]!;
      const events = await deps.activity.events(domain, { messageId: first.message.id, recipient: first.recipient.email, ascending: true, limit: 100 });
      // The address the last attempt went out from: always one of the operator's own ("dedicated" in SendGrid's words).
      const outbound = first.recipient.sourceIp ?? "";
      return json(200, { ...summary(first), categories: first.message.tags, unique_args: first.message.metadata,
        outbound_ip: outbound, outbound_ip_type: outbound ? "dedicated" : "",
        events: events.map((e) => ({ event_name: e.type, processed: new Date(e.timestamp).toISOString() })) });
    }, { permission: READ });
}
