// The native bot-detection API: POST /{domain}/bot (batch mode pushes verdicts to webhook_url;
// single-interaction mode answers after at least one second), GET /{domain}/bot/{request_id}
// (results kept for an hour, readable by that domain only), POST /webhook (verifies a payload's
// signature for integrators). Results and pushes are kept by webhooks/bot-verdicts.ts: stored, and
// pushed as durable outbox items.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { principalOf, requireDomainScope } from "../context.ts";
import { AppError, notFound } from "../../core/errors.ts";
import { newId } from "../../core/ids.ts";
import { hmacVerify } from "../../webhooks/signing.ts";
import { parseBotRequest, type BotEvent } from "./bot-model.ts";
import { renderNativeError } from "./errors.ts";
import { surfaceOnError } from "../errors.ts";
import { permissions } from "../permission.ts";

const SINGLE_MIN_LATENCY_MS = 1_000;
const SINGLE_PER_SECOND = 5;

type Deps = Pick<SurfaceDeps, "detector" | "domains" | "now" | "webhookSigningKey" | "botVerdicts" | "outbound">;

export function botRoutes(deps: Deps) {
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

  /** A domain key verifies with its domain's key; an account key with the installation's, or a named domain's. */
  async function verifyingKey(request: Request, named: unknown): Promise<string> {
    const p = principalOf(request);
    const domain = p.kind === "domain" ? p.domain?.name : typeof named === "string" && named ? (await deps.domains.get(named))?.name : undefined;
    return domain ? deps.outbound.signingKey(domain) : deps.webhookSigningKey;
  }

  function limitSingle(domain: string) {
    const second = Math.floor(deps.now() / 1000);
    const r = rate.get(domain);
    if (r && r.second === second && r.count >= SINGLE_PER_SECOND) throw new AppError("rate_limited", "too many single-interaction requests; use batch mode");
    rate.set(domain, r && r.second === second ? { second, count: r.count + 1 } : { second, count: 1 });
  }

  return new Elysia({ name: "native-bot" })
    .onError(surfaceOnError(renderNativeError))
    .use(permissions)
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
        await deps.botVerdicts.saveResult(domain, requestId, stored);
        // The spec makes this endpoint slow on purpose: never an answer before one second.
        await Bun.sleep(Math.max(0, SINGLE_MIN_LATENCY_MS - (deps.now() - started)));
        if (req.webhook_url) await deps.botVerdicts.push(domain, req.webhook_url, { batch: { batch_id: requestId, timeQueued: Math.floor(started / 1000) }, events: [{ ...event, is_bot: isBot }] });
        return { request_id: requestId, ...stored };
      }
      const batchId = newId(started);
      const events = await Promise.all(req.events.map(async (e) => ({ ...e, is_bot: await classify(e) })));
      await deps.botVerdicts.push(domain, req.webhook_url!, { batch: { batch_id: batchId, timeQueued: Math.floor(started / 1000) }, events });
      return { message: "batch queued", batch_id: batchId, events: events.length };
    }, { permission: { right: "bots.use", domain: "domain" } })
    .get("/:domain/bot/:requestId", async ({ request, params }) => {
      const domain = await enabledDomain(request, params.domain);
      const r = await deps.botVerdicts.getResult(domain, params.requestId);
      if (!r) throw notFound("bot detection result not found: not processed yet, or expired");
      return r;
    }, { permission: { right: "bots.use", domain: "domain" } })
    .post("/webhook", async ({ request, body }) => {
      const b = body as { domain?: unknown; signature?: { timestamp?: string | number; token?: string; signature?: string } } | null;
      const sig = b?.signature;
      if (!sig?.token || !sig.signature || sig.timestamp === undefined) throw new AppError("invalid", "signature with timestamp, token and signature is required");
      const valid = hmacVerify(await verifyingKey(request, b?.domain), { timestamp: sig.timestamp, token: sig.token, signature: String(sig.signature) });
      return { message: valid ? "signature verified" : "signature does not match", valid };
    }, { permission: { right: "any" } });
}

