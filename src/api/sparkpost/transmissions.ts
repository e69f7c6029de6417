// /api/v1/transmissions: send, list (scheduled ones, as SparkPost lists), get. postern keeps
// messages, not transmissions: a transmission id is the id of its first message, and GET shows
// that message's recipients and metadata (campaign_id, description, options are not kept).
import { Elysia } from "elysia";
import type { Domain } from "../../core/model.ts";
import type { ActivityService } from "../../core/activity.ts";
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { notFoundError } from "./errors.ts";
import { authorize } from "./grants.ts";
import { readQuery } from "./query.ts";
import { scopedDomains } from "./scope.ts";
import { sendTransmission } from "./transmission-send.ts";

type Deps = Pick<SurfaceDeps, "sender" | "domains" | "activity" | "now" | "config" | "templates">;

type Found = NonNullable<Awaited<ReturnType<ActivityService["message"]>>>;
type StoredMessage = Found["message"];
type StoredRecipient = Found["recipients"][number];

const LIST_SCAN_EVENTS = 1000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+00:00");

/** SparkPost's transmission states from the message's recipients: scheduled ones are "submitted". */
function stateOf(recipients: StoredRecipient[], now: number): string {
  return recipients.some((r) => r.status === "queued" && r.attempts === 0 && r.nextAttemptAt > now) ? "submitted" : "Success";
}

function toTransmission(m: StoredMessage, recipients: StoredRecipient[], now: number) {
  const failed = recipients.filter((r) => r.status === "suppressed").length;
  return {
    id: m.id, description: "", state: stateOf(recipients, now), campaign_id: "", content: { template_id: "inline" },
    rcpt_list_chunk_size: recipients.length, rcpt_list_total_chunks: 1, num_rcpts: recipients.length,
    num_generated: recipients.length - failed, num_failed_gen: failed, generation_start_time: iso(m.createdAt),
    generation_end_time: iso(m.createdAt), substitution_data: "", metadata: m.metadata, tags: m.tags, options: {},
  };
}

async function findMessage(deps: Deps, domains: Domain[], id: string) {
  for (const d of domains) {
    const found = await deps.activity.message(d.name, id);
    if (found) return found;
  }
  return null;
}

/** Scheduled (not yet due) messages of the domains in scope, newest first. */
async function listScheduled(deps: Deps, domains: Domain[]) {
  const out: ReturnType<typeof toTransmission>[] = [];
  for (const d of domains) {
    const events = await deps.activity.events(d.name, { types: ["accepted"], limit: LIST_SCAN_EVENTS });
    for (const id of new Set(events.map((e) => e.messageId))) {
      const found = await deps.activity.message(d.name, id);
      if (found && stateOf(found.recipients, deps.now()) === "submitted") out.push(toTransmission(found.message, found.recipients, deps.now()));
    }
  }
  return out.map(({ id, campaign_id, description, state, content }) => ({ id, campaign_id, description, state, content }));
}

export function transmissionRoutes(deps: Deps) {
  return (app: Elysia) => app
    .post("/transmissions", async ({ request, body }) => {
      const principal = authorize(request, "transmissions");
      const cap = readQuery(request).int("num_rcpt_errors", { min: 0, max: 1_000_000 });
      return json(200, await sendTransmission(principal, body, cap, deps));
    })
    .get("/transmissions", async ({ request }) => {
      authorize(request, "transmissions");
      return json(200, { results: await listScheduled(deps, await scopedDomains(request, deps.domains)) });
    })
    .get("/transmissions/:id", async ({ request, params }) => {
      authorize(request, "transmissions");
      const found = await findMessage(deps, await scopedDomains(request, deps.domains), params.id);
      if (!found) throw notFoundError(`Resource not found:transmission id ${params.id}`);
      return json(200, { results: { transmission: toTransmission(found.message, found.recipients, deps.now()) } });
    });
}
