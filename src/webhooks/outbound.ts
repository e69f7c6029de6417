// Everything a format needs to reach a customer's host, built once: the pinned egress request with
// the webhook timeout, the OAuth token cache and the signing keys. Used by delivery for outbox
// items and by the surfaces for samples and the create/validate ping.
import type { Resolver } from "../dns.ts";
import type { WebhookTarget } from "../core/store-port.ts";
import { checkEgress } from "../net/egress.ts";
import { pinnedRequest, type OutboundRequest, type PinnedResponse } from "../net/pinned-request.ts";
import type { FormatContext } from "./format.ts";
import type { StoredInbound } from "../core/inbound/model.ts";
import type { SigningKeys } from "./keys.ts";
import { createTokenCache } from "./oauth.ts";
import { formatNamed } from "./registry.ts";
import type { SpamCheck } from "./spam-check.ts";

export interface OutboundDeps {
  resolver: Resolver;
  now: () => number;
  config: { allow_private: boolean; timeout: number };
  keys: SigningKeys;
  eventWebhookKey: string;
  publicUrl?: string;
  /** Loads a received message of `domain` (inbound formats). */
  loadInbound?: (domain: string, id: string) => Promise<StoredInbound | null>;
  /** SpamAssassin through spamd (spam-check.ts); absent: nothing is checked. */
  spamCheck?: SpamCheck;
}

/**
 * Where a request goes and for whom: the item's domain and its target (null for callback URLs and
 * pushes); `tenant`, for a check of an account-level URL before its target exists (its signing key).
 */
export interface Recipient { url: string; domain: string; target: WebhookTarget | null; tenant?: number }

export function createOutbound(deps: OutboundDeps) {
  const policy = { allowPrivate: deps.config.allow_private, resolver: deps.resolver };
  const send = (url: string, init: OutboundRequest): Promise<PinnedResponse> => pinnedRequest(url, init, { ...policy, timeoutMs: deps.config.timeout });
  const tokens = createTokenCache({ send: (url, body) => send(url, { body, headers: { "content-type": "application/x-www-form-urlencoded" } }) });

  async function context(to: Recipient): Promise<FormatContext> {
    const now = deps.now();
    const isAccountLevel = to.target !== null && to.target.domainId === null;
    // An account-level target is signed with its tenant's key; a domain's with the domain's.
    const signingKey = isAccountLevel ? deps.keys.forTenant(to.target!.tenantId ?? 0)
      : to.domain ? deps.keys.forDomain(to.domain) : deps.keys.forTenant(to.tenant ?? 0);
    return {
      now, domain: to.domain, target: to.target, eventWebhookKey: deps.eventWebhookKey, send,
      signingKey: await signingKey,
      // Account-wide rules of the domain's tenant (Mailgun routes) sign with that tenant's key.
      accountSigningKey: await deps.keys.forAccountOf(to.domain), publicUrl: deps.publicUrl ?? "",
      inbound: async (id) => (deps.loadInbound ? deps.loadInbound(to.domain, id) : null),
      spamCheck: async (raw) => (deps.spamCheck ? deps.spamCheck(raw) : null),
      oauthToken: (details) => tokens.get(to.target?.id || to.url, { url: details.url, body: details.body }, now),
    };
  }

  return {
    context,
    /** Null when `url` may be called, else why not (scheme, private address, no DNS answer). */
    check: (url: string) => checkEgress(url, policy),
    /** The format's test POST to `to.url`; resolves with the answer whatever its status, throws when none came. */
    async ping(format: string, to: Recipient, message?: unknown): Promise<PinnedResponse> {
      return formatNamed(format).ping(to.url, await context(to), message);
    },
    /** The HMAC key webhooks of `domain` are signed with (null: the account-level targets of `tenant`, default the primary). */
    signingKey: (domain: string | null, tenant = 0) => (domain ? deps.keys.forDomain(domain) : deps.keys.forTenant(tenant)),
    /** The format's example payload of `type`, signed with `domain`'s key (null: the key of `tenant`'s account-level targets). */
    async sample(format: string, type: string, domain: string | null, tenant = 0): Promise<unknown> {
      const signingKey = domain ? await deps.keys.forDomain(domain) : await deps.keys.forTenant(tenant);
      return formatNamed(format).sample(type, { now: deps.now(), domain: domain ?? "", signingKey });
    },
  };
}

export type Outbound = ReturnType<typeof createOutbound>;
