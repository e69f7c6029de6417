// The native bot-detection API: POST /{domain}/bot (batch mode pushes verdicts to webhook_url;
// single-interaction mode answers after at least one second), GET /{domain}/bot/{request_id}
// (results kept for an hour), POST /webhook (verifies a payload's signature for integrators).
import { Elysia } from "elysia";
import { createHmac, timingSafeEqual } from "node:crypto";
import type { SurfaceDeps } from "../deps.ts";
import { requireDomainScope } from "../context.ts";
import { AppError, notFound } from "../../core/errors.ts";
import { newId } from "../../core/ids.ts";
import { guardedFetch } from "../../events/egress.ts";
import { parseBotRequest, type BotEvent } from "./bot-model.ts";
import { mailgunSignature } from "../../events/formats/mailgun.ts";
import { renderNativeError } from "./errors.ts";
import { surfaceOnError } from "../errors.ts";

const SINGLE_MIN_LATENCY_MS = 1_000;
const RESULT_TTL_MS = 3_600_000;
const SINGLE_PER_SECOND = 5;
const PUSH_RETRIES_MS = [1_000, 5_000, 30_000];

type Deps = Pick<SurfaceDeps, "detector" | "domains" | "now" | "webhookSigningKey" | "config" | "resolver">;

export function botRoutes(deps: Deps) {
  const results = new Map<string, { at: number; body: Record<string, unknown> }>();
  const rate = new Map<string, { second: number; count: number }>();

  const classify = async (e: BotEvent) => (await deps.detector.classify({
    ip: e.ip ?? "", userAgent: e.uas ?? "", action: e.action ?? "click", domain: e.domain, messageId: e.message_id, recipientId: e.recipient_id,
    at: e.ts ? e.ts * 1000 : undefined, deliveredAt: e.message_ts ? e.message_ts * 1000 : undefined,
  })).isBot;

  async function enabledDomain(request: Request, name: string) {
    requireDomainScope(request, name);
    const d = await deps.domains.get(name);
    if (!d) throw notFound(`domain ${name} not found`);
    if (!d.botDetection) throw new AppError("payment_required", `bot detection is not enabled for ${name}`);
    return d;
  }

  async function push(url: string, payload: Record<string, unknown>) {
    // The spec's bot payload has an integer timestamp; the HMAC is over its decimal text + token.
    const sig = mailgunSignature(deps.webhookSigningKey, deps.now());
    const body = JSON.stringify({ ...payload, signature: { ...sig, timestamp: Number(sig.timestamp) } });
    const egress = { allowPrivate: deps.config.webhooks.allow_private, resolver: deps.resolver, timeoutMs: deps.config.webhooks.timeout };
    for (const wait of [0, ...PUSH_RETRIES_MS]) {
      if (wait) await Bun.sleep(wait);
      const outcome = await guardedFetch(url, { method: "POST", body, headers: { "content-type": "application/json" } }, egress)
        .then((r) => (r.ok ? "ok" : "retry"), (e: { code?: string }) => (e.code === "EGRESS_REFUSED" ? "refused" : "retry"));
      if (outcome !== "retry") return;
    }
  }

  function limitSingle(domain: string) {
    const second = Math.floor(deps.now() / 1000);
    const r = rate.get(domain);
    if (r && r.second === second && r.count >= SINGLE_PER_SECOND) throw new AppError("rate_limited", "too many single-interaction requests; use batch mode");
    rate.set(domain, r && r.second === second ? { second, count: r.count + 1 } : { second, count: 1 });
  }

  function prune() {
    for (const [id, r] of results) if (deps.now() - r.at > RESULT_TTL_MS) results.delete(id);
  }

  return new Elysia({ name: "native-bot" })
    .onError(surfaceOnError(renderNativeError))
    .post("/:domain/bot", async ({ request, params, body }) => {
      const domain = await enabledDomain(request, params.domain);
      const req = parseBotRequest(body);
      const started = deps.now();
      if (req.isSingle) {
        limitSingle(domain.name);
        // The interaction's IP is the end user's; the caller's own address says nothing about it.
        const event = { ...req.events[0]! };
        const requestId = newId(started);
        const isBot = await classify(event);
        const stored = { is_bot: isBot, request: { action: event.action ?? "click", domain: event.domain ?? "", event_id: event.event_id ?? requestId,
          ip: event.ip ?? "", message_id: event.message_id ?? "", recipient_id: event.recipient_id ?? "", ts: event.ts ?? Math.floor(started / 1000),
          uas: event.uas ?? "", webhook_url: req.webhook_url ?? "" } };
        prune();
        results.set(requestId, { at: started, body: stored });
        // The spec makes this endpoint slow on purpose: never an answer before one second.
        await Bun.sleep(Math.max(0, SINGLE_MIN_LATENCY_MS - (deps.now() - started)));
        if (req.webhook_url) void push(req.webhook_url, { batch: { batch_id: requestId, timeQueued: Math.floor(started / 1000) }, events: [{ ...event, is_bot: isBot }] });
        return { request_id: requestId, ...stored };
      }
      const batchId = newId(started);
      const events = await Promise.all(req.events.map(async (e) => ({ ...e, is_bot: await classify(e) })));
      void push(req.webhook_url!, { batch: { batch_id: batchId, timeQueued: Math.floor(started / 1000) }, events });
      return { message: "batch queued", batch_id: batchId, events: events.length };
    })
    .get("/:domain/bot/:requestId", async ({ request, params }) => {
      await enabledDomain(request, params.domain);
      const r = results.get(params.requestId);
      if (!r || deps.now() - r.at > RESULT_TTL_MS) throw notFound("bot detection result not found: not processed yet, or expired");
      return r.body;
    })
    .post("/webhook", ({ body }) => {
      const sig = (body as { signature?: { timestamp?: string | number; token?: string; signature?: string } })?.signature;
      if (!sig?.token || !sig.signature || sig.timestamp === undefined) throw new AppError("invalid", "signature with timestamp, token and signature is required");
      const expected = createHmac("sha256", deps.webhookSigningKey).update(String(sig.timestamp) + sig.token).digest("hex");
      const given = Buffer.from(String(sig.signature));
      const valid = given.length === expected.length && timingSafeEqual(Buffer.from(expected), given);
      return { message: valid ? "signature verified" : "signature does not match", valid };
    });
}

