// /api/v1/transmissions: send, list (scheduled ones, as SparkPost lists), get. A transmission is one
// core send: its id is the send id, and GET counts the recipients of every message of the send
// (the id of one of its messages, which older postern versions answered, is still found).
import { Elysia } from "elysia";
import type { Domain } from "../../core/model.ts";
import type { ActivityService } from "../../core/activity.ts";
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { notFoundError } from "./errors.ts";
import { need } from "./grants.ts";
import { permissions } from "../permission.ts";
import { principalOf } from "../context.ts";
import { readQuery } from "./query.ts";
import { scopedDomains } from "./scope.ts";
import { sendTransmission } from "./transmission-send.ts";

type Deps = Pick<SurfaceDeps, "sender" | "domains" | "activity" | "now" | "config" | "templateService" | "lists">;

type Found = NonNullable<Awaited<ReturnType<ActivityService["send"]>>>;
type StoredRecipient = Found["messages"][number]["recipients"][number];
type Extra = NonNullable<Found["messages"][number]["message"]["extra"]>;

const LIST_LIMIT = 1000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+00:00");

/** SparkPost's transmission states from the recipients: scheduled ones are "submitted". */
function stateOf(recipients: StoredRecipient[], now: number): string {
  return recipients.some((r) => r.status === "queued" && r.attempts === 0 && r.nextAttemptAt > now) ? "submitted" : "Success";
}

/** The fields the list and the single view share. */
const summaryOf = (id: string, extra: Extra, state: string) => ({
  id, campaign_id: extra.campaignId ?? "", description: extra.description ?? "", state, content: { template_id: extra.templateId ?? "inline" },
});

function toTransmission(found: Found, now: number) {
  const first = found.messages[0]!.message;
  const recipients = found.messages.flatMap((m) => m.recipients);
  const failed = recipients.filter((r) => r.status === "suppressed").length;
  const extra = first.extra ?? {};
  return {
    ...summaryOf(found.id, extra, stateOf(recipients, now)),
    rcpt_list_chunk_size: recipients.length, rcpt_list_total_chunks: 1, num_rcpts: recipients.length,
    num_generated: recipients.length - failed, num_failed_gen: failed, generation_start_time: iso(first.createdAt),
    generation_end_time: iso(first.createdAt), substitution_data: "", metadata: first.metadata, tags: first.tags,
    options: extra.ipPool ? { ip_pool: extra.ipPool } : {},
  };
}

async function findSend(deps: Deps, domains: Domain[], id: string): Promise<Found | null> {
  for (const d of domains) {
    const found = await deps.activity.send(d.name, id);
    if (found) return found;
  }
  return null;
}

/** Scheduled (not yet due) transmissions of the domains in scope, newest first. */
async function listScheduled(deps: Deps, domains: Domain[], filter: { campaignId?: string; templateId?: string }) {
  const q = { ...filter, scheduledAfter: deps.now(), limit: LIST_LIMIT };
  const sends = (await Promise.all(domains.map((d) => deps.activity.sends(d.name, q)))).flat();
  sends.sort((a, b) => b.createdAt - a.createdAt);
  return sends.slice(0, LIST_LIMIT).map((s) => summaryOf(s.id, s.extra, "submitted"));
}

export function transmissionRoutes(deps: Deps) {
  return (app: Elysia) => app.use(permissions)
    .post("/transmissions", async ({ request, body }) => {
      const principal = principalOf(request);
      const cap = readQuery(request).int("num_rcpt_errors", { min: 0, max: 1_000_000 });
      return json(200, await sendTransmission(principal, body, cap, deps));
    }, { permission: need("mail.send") })
    .get("/transmissions", async ({ request }) => {
      const q = readQuery(request);
      const filter = { campaignId: q.str("campaign_id") || undefined, templateId: q.str("template_id") || undefined };
      return json(200, { results: await listScheduled(deps, await scopedDomains(request, deps.domains), filter) });
    }, { permission: need("mail.read") })
    .get("/transmissions/:id", async ({ request, params }) => {
      const found = await findSend(deps, await scopedDomains(request, deps.domains), params.id);
      if (!found) throw notFoundError(`Resource not found:transmission id ${params.id}`);
      return json(200, { results: { transmission: toTransmission(found, deps.now()) } });
    }, { permission: need("mail.read") });
}
