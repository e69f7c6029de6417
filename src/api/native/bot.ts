// The native bot-detection API: POST /{domain}/bot (batch mode pushes verdicts to webhook_url;
// single-interaction mode answers after at least one second), GET /{domain}/bot/{request_id}
// (results kept for an hour, readable by that domain only), POST /webhook (verifies a payload's
// signature for integrators). What the API does lives in tracking/bot-api.ts.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { principalOf } from "../context.ts";
import { AppError, notFound } from "../../core/errors.ts";
import { hmacVerify } from "../../webhooks/signing.ts";
import { parseBotRequest } from "./bot-model.ts";
import { permissions } from "../permission.ts";
import { accountTenant } from "../../core/permissions.ts";
import { botDomain, visibleDomain } from "./policy.ts";

type Deps = Pick<SurfaceDeps, "bots" | "domains" | "outbound">;
const USE = { permission: { right: "bots.use", domain: "domain" } } as const;

export function botRoutes(deps: Deps) {
  /**
   * A named domain's key, only for a domain the caller may use (another tenant's, or another domain
   * for a domain key, is the native 404 as on every domain route: contract §14); without one, a
   * domain key's own domain's, an account key's that of the tenant it acts for (the installation's
   * for the primary's own keys only: core/permissions.ts `accountTenant`).
   */
  async function verifyingKey(request: Request, named: unknown): Promise<string> {
    if (typeof named === "string" && named) return deps.outbound.signingKey((await visibleDomain(request, deps.domains, named)).domain.name);
    const p = principalOf(request);
    return deps.outbound.signingKey(p.kind === "domain" && p.domain ? p.domain.name : null, accountTenant(p));
  }

  return new Elysia({ name: "native-bot" }).use(permissions)
    .post("/:domain/bot", async ({ request, params, body }) => {
      const domain = await botDomain(request, deps.domains, params.domain);
      const req = parseBotRequest(body);
      if (req.isSingle) return deps.bots.single(domain, { ...req.events[0]! }, req.webhook_url);
      const { batchId, count } = await deps.bots.batch(domain, req.events, req.webhook_url!);
      return { message: "batch queued", batch_id: batchId, events: count };
    }, USE)
    .get("/:domain/bot/:requestId", async ({ request, params }) => {
      const r = await deps.bots.result(await botDomain(request, deps.domains, params.domain), params.requestId);
      if (!r) throw notFound("bot detection result not found: not processed yet, or expired");
      return r;
    }, USE)
    .post("/webhook", async ({ request, body }) => {
      const b = body as { domain?: unknown; signature?: { timestamp?: string | number; token?: string; signature?: string } } | null;
      const sig = b?.signature;
      if (!sig?.token || !sig.signature || sig.timestamp === undefined) throw new AppError("invalid", "signature with timestamp, token and signature is required");
      const valid = hmacVerify(await verifyingKey(request, b?.domain), { timestamp: sig.timestamp, token: sig.token, signature: String(sig.signature) });
      return { message: valid ? "signature verified" : "signature does not match", valid };
    }, { permission: { right: "any" } });
}
