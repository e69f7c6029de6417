// /api/v1/transmissions: send, list (scheduled ones, as SparkPost lists), get. A transmission is one
// core send: its id is the send id, and GET counts the recipients of every message of the send
// (the id of one of its messages, which older postern versions answered, is still found).
import { Elysia } from "elysia";
import { isScheduled, type ActivityService } from "../../core/activity.ts";
import type { StoredSend } from "../../core/store-port.ts";
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { isoSeconds } from "../wire.ts";
import { notFoundError } from "./errors.ts";
import { need, scopedDomains } from "./policy.ts";
import { permissions } from "../permission.ts";
import { principalOf } from "../context.ts";
import { readQuery } from "./query.ts";
import { sendTransmission } from "./transmission-send.ts";

type Deps = Pick<SurfaceDeps, "sender" | "domains" | "activity" | "now" | "config" | "templateService" | "lists">;

type Found = NonNullable<Awaited<ReturnType<ActivityService["send"]>>>;

const LIST_LIMIT = 1000;
const iso = (ms: number) => isoSeconds(ms, "+00:00");

/** The fields the list and the single view share; scheduled transmissions are SparkPost's "submitted". */
const summaryOf = (id: string, extra: StoredSend["extra"], state: string) => ({
  id, campaign_id: extra.campaignId ?? "", description: extra.description ?? "", state, content: { template_id: extra.templateId ?? "inline" },
});

function toTransmission(found: Found, now: number) {
  const first = found.messages[0]!.message;
  const recipients = found.messages.flatMap((m) => m.recipients);
  const failed = recipients.filter((r) => r.status === "suppressed").length;
  const extra = first.extra ?? {};
  return {
    ...summaryOf(found.id, extra, recipients.some((r) => isScheduled(r, now)) ? "submitted" : "Success"),
    rcpt_list_chunk_size: recipients.length, rcpt_list_total_chunks: 1, num_rcpts: recipients.length,
    num_generated: recipients.length - failed, num_failed_gen: failed, generation_start_time: iso(first.createdAt),
    generation_end_time: iso(first.createdAt), substitution_data: "", metadata: first.metadata, tags: first.tags,
    options: extra.ipPool ? { ip_pool: extra.ipPool } : {},
  };
}

export function transmissionRoutes(deps: Deps) {
  const names = async (request: Request) => (await scopedDomains(request, deps.domains)).map((d) => d.name);
  return (app: Elysia) => app.use(permissions)
    .post("/transmissions", async ({ request, body }) => {
      const cap = readQuery(request).int("num_rcpt_errors", { min: 0, max: 1_000_000 });
      return json(200, await sendTransmission(principalOf(request), body, cap, deps));
    }, { permission: need("mail.send") })
    .get("/transmissions", async ({ request }) => {
      const q = readQuery(request);
      const filter = { campaignId: q.str("campaign_id") || undefined, templateId: q.str("template_id") || undefined };
      const sends = await deps.activity.scheduledSends(await names(request), filter, deps.now(), LIST_LIMIT);
      return json(200, { results: sends.map((s) => summaryOf(s.id, s.extra, "submitted")) });
    }, { permission: need("mail.read") })
    .get("/transmissions/:id", async ({ request, params }) => {
      const found = await deps.activity.findSend(await names(request), params.id);
      if (!found) throw notFoundError(`Resource not found:transmission id ${params.id}`);
      return json(200, { results: { transmission: toTransmission(found, deps.now()) } });
    }, { permission: need("mail.read") });
}
