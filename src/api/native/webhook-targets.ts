// Domain webhooks of the native API as WebhookTargets: the same Mailgun-format targets the Mailgun
// surface manages (format "mailgun", one target per URL, the type in extra.mailgunId), so either API
// sees and replaces the other's. Create after every URL passed its check; delete all URLs of a type.
import type { Domain, Principal } from "../../core/model.ts";
import { egressTenant } from "../../core/permissions.ts";
import type { WebhookService } from "../../core/webhooks.ts";
import { AppError, forbidden, invalid } from "../../core/errors.ts";
import { ErrorListError } from "./errors.ts";
import type { Outbound } from "../../webhooks/outbound.ts";
import { TRACKED_TYPES, WEBHOOK_TYPES } from "./webhook-types.ts";
import { checkWebhookUrl, probeWebhookUrl } from "./webhook-check.ts";
import { FORMAT, isMailgunShaped } from "../../webhooks/registry.ts";
import { isEgressNotice, isNoticeType, NOTICE_TYPES } from "../../core/notice.ts";

export const MAX_WEBHOOK_URLS = 3;

type WebhookTarget = Awaited<ReturnType<WebhookService["list"]>>[number];

export interface WebhookDeps {
  webhooks: WebhookService;
  outbound: Outbound;
}

/** The known webhook type `type`, else a 400 listing the types. */
export function checkWebhookType(type: string | undefined): string {
  const t = type?.trim().toLowerCase() ?? "";
  if (!t) throw invalid("id (the webhook type) is required", "id");
  const known = [...Object.keys(WEBHOOK_TYPES), ...NOTICE_TYPES];
  if (!known.includes(t)) throw invalid(`unknown webhook type "${type}"; one of ${known.join(", ")}`, "id");
  return t;
}

/**
 * `type`, unless it watches the installation's egress addresses (ip_*) and `p` is not the operator's
 * (core/permissions.ts egressTenant): another tenant sees no egress address, so it is a 403.
 */
export function egressType(p: Pick<Principal, "tenant">, type: string): string {
  const tenant = egressTenant(p);
  if (isEgressNotice(type) && tenant !== undefined) throw forbidden(`${type} notices are about the installation's egress addresses, which tenant ${tenant} does not watch`);
  return type;
}

/** The type of an account-wide webhook: a notice type (docs/events.md), else a 400 listing them. */
export function checkAccountWebhookType(type: string | undefined): string {
  const t = type?.trim().toLowerCase() ?? "";
  if (!isNoticeType(t)) throw invalid(`unknown account webhook type "${type ?? ""}"; one of ${NOTICE_TYPES.join(", ")}`, "id");
  return t;
}

const ofType = (targets: WebhookTarget[], domain: Pick<Domain, "id"> | null, type: string) =>
  targets.filter((w) => isMailgunShaped(w.format) && w.domainId === (domain?.id ?? null)
    && (w.extra.mailgunId ?? w.extra.webhookType) === type);

async function checkUrls(urls: string[], deps: WebhookDeps): Promise<string[]> {
  if (urls.length === 0) throw invalid("url is required", "url");
  if (urls.length > MAX_WEBHOOK_URLS) throw invalid(`at most ${MAX_WEBHOOK_URLS} url values per webhook, got ${urls.length}`, "url");
  const problems = (await Promise.all(urls.map((u) => checkWebhookUrl(u, deps.outbound)))).flat();
  if (problems.length) throw new ErrorListError("invalid", problems[0]!, problems);
  return urls;
}

/** Checks every URL with a signed sample, then stores them; any failing endpoint refuses the whole call (402). */
export async function createDomainWebhook(deps: WebhookDeps, domain: Domain, type: string, rawUrls: string[]): Promise<string[]> {
  const urls = await checkUrls([...new Set(rawUrls.map((u) => u.trim()).filter(Boolean))], deps);
  const tracked = TRACKED_TYPES[type];
  if (tracked && !domain[tracked]) {
    throw invalid(`${type} webhooks need ${tracked === "openTracking" ? "open" : "click"} tracking, which is off for ${domain.name}`, "id");
  }
  // Notices (a listed domain) are checked with a sample of their own shape.
  const [sample] = (await deps.outbound.sample(isNoticeType(type) ? FORMAT.notice : FORMAT.native, type, domain.name)) as unknown[];
  const failures = (await Promise.all(urls.map((u) => probeWebhookUrl(u, domain.name, sample, deps.outbound)))).filter((f): f is string => f !== null);
  if (failures.length) throw new ErrorListError("payment_required", "Webhook URL check failed", failures);
  const existing = ofType(await deps.webhooks.list(domain.id), domain, type);
  for (const w of existing) await deps.webhooks.remove(w.id);
  for (const url of urls) {
    await deps.webhooks.create({ domainId: domain.id, events: [WEBHOOK_TYPES[type] ?? type], url, format: FORMAT.mailgun, extra: { mailgunId: type } });
  }
  return urls;
}

/** Removes every URL of `type`; a 402 when there was none (spec: "No webhook deleted"). */
export async function deleteDomainWebhook(deps: WebhookDeps, domain: Domain, type: string): Promise<string[]> {
  const existing = ofType(await deps.webhooks.list(domain.id), domain, type);
  if (existing.length === 0) throw new AppError("payment_required", `No ${type} webhook to delete for ${domain.name}`);
  for (const w of existing) await deps.webhooks.remove(w.id);
  return existing.map((w) => w.url);
}

/** The account-wide targets of `tenant` (native, Mailgun-shaped) of `type`. */
const accountOfType = async (deps: WebhookDeps, tenant: number, type: string) => ofType(await deps.webhooks.list(null, tenant), null, type);

/** An account-wide webhook of a notice type for `tenant`: checked with a sample signed with that tenant's key, then stored as its own. */
export async function createAccountWebhook(deps: WebhookDeps, tenant: number, type: string, rawUrls: string[]): Promise<string[]> {
  const urls = await checkUrls([...new Set(rawUrls.map((u) => u.trim()).filter(Boolean))], deps);
  const [sample] = (await deps.outbound.sample(FORMAT.notice, type, null, tenant)) as unknown[];
  const failures = (await Promise.all(urls.map((u) => probeWebhookUrl(u, "", sample, deps.outbound, tenant)))).filter((f): f is string => f !== null);
  if (failures.length) throw new ErrorListError("payment_required", "Webhook URL check failed", failures);
  for (const w of await accountOfType(deps, tenant, type)) await deps.webhooks.remove(w.id);
  for (const url of urls) await deps.webhooks.create({ domainId: null, tenantId: tenant, events: [type], url, format: FORMAT.mailgun, extra: { mailgunId: type } });
  return urls;
}

/** `tenant`'s account-wide webhooks by type: `{ ip_listed: { urls: [...] }, ... }`. */
export async function listAccountWebhooks(deps: WebhookDeps, tenant: number): Promise<Record<string, { urls: string[] }>> {
  const all = await deps.webhooks.list(null, tenant);
  return Object.fromEntries(NOTICE_TYPES.map((t) => [t, { urls: ofType(all, null, t).map((w) => w.url) }]).filter(([, v]) => (v as { urls: string[] }).urls.length));
}

export async function deleteAccountWebhook(deps: WebhookDeps, tenant: number, type: string): Promise<string[]> {
  const existing = await accountOfType(deps, tenant, type);
  if (existing.length === 0) throw new AppError("payment_required", `No ${type} account webhook to delete`);
  for (const w of existing) await deps.webhooks.remove(w.id);
  return existing.map((w) => w.url);
}
