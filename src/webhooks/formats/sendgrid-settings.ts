// SendGrid's Event Webhook settings (GET/PATCH /v3/user/webhooks/event/settings, and the CLI):
// one SendGrid-format target per domain (or account-wide for an account key, one per tenant: the
// acting tenant's, docs/tenants.md) that receives the domain's events without any callback_url. The event switches are SendGrid's own names, kept
// in the target's extra.types; `enabled` is the target's extra.active.
import type { WebhookService } from "../../core/webhooks.ts";
import type { WebhookTarget } from "../../core/store-port.ts";

/** SendGrid's event switches, in the order its settings list them. */
export const SG_EVENT_SWITCHES = ["group_resubscribe", "delivered", "group_unsubscribe", "spam_report", "bounce", "deferred", "unsubscribe",
  "processed", "open", "click", "dropped"] as const;
export type SgEventSwitch = (typeof SG_EVENT_SWITCHES)[number];

/** The switch that turns a SendGrid event name (`spamreport`, `bounce`...) on. */
export const switchOf = (event: string): string => (event === "spamreport" ? "spam_report" : event);

export interface EventWebhookSettings {
  enabled: boolean;
  url: string;
  types: SgEventSwitch[];
  signed: boolean;
  friendlyName: string | null;
  oauth: { clientId: string; clientSecret: string; tokenUrl: string } | null;
}

export type SettingsPatch = Partial<Omit<EventWebhookSettings, "oauth">> & { oauth?: EventWebhookSettings["oauth"] };

const isSettingsTarget = (t: WebhookTarget, domainId: number | null) =>
  t.format === "sendgrid" && t.extra.eventWebhook === true && t.domainId === domainId;

export const DEFAULT_SETTINGS: EventWebhookSettings = { enabled: false, url: "", types: [], signed: false, friendlyName: null, oauth: null };

export function settingsOf(t: WebhookTarget | null): EventWebhookSettings {
  if (!t) return DEFAULT_SETTINGS;
  const x = t.extra;
  return {
    enabled: x.active !== false, url: t.url, types: (Array.isArray(x.types) ? x.types : []) as SgEventSwitch[], signed: x.signed === true,
    friendlyName: typeof x.friendly_name === "string" ? x.friendly_name : null,
    oauth: typeof x.oauth_token_url === "string" && x.oauth_token_url
      ? { clientId: String(x.oauth_client_id ?? ""), clientSecret: String(x.oauth_client_secret ?? ""), tokenUrl: x.oauth_token_url } : null,
  };
}

function extraOf(s: EventWebhookSettings): Record<string, unknown> {
  return {
    eventWebhook: true, active: s.enabled, types: s.types, signed: s.signed, friendly_name: s.friendlyName,
    ...(s.oauth ? { oauth_client_id: s.oauth.clientId, oauth_client_secret: s.oauth.clientSecret, oauth_token_url: s.oauth.tokenUrl } : {}),
  };
}

/** Whose Event Webhook: a domain's (domainId), or (null) the account-wide one of tenant `tenantId`. */
export interface SettingsScope { domainId: number | null; tenantId: number }

/** Reads and writes the Event Webhook of a domain or of a tenant's account. */
export function createEventWebhookSettings(deps: { webhooks: WebhookService; onChange?: () => void }) {
  async function find({ domainId, tenantId }: SettingsScope): Promise<WebhookTarget | null> {
    // A domain's targets are the domain's whoever made them; account-wide ones only the tenant's own.
    const targets = await deps.webhooks.list(domainId, domainId === null ? tenantId : undefined);
    return targets.find((t) => isSettingsTarget(t, domainId)) ?? null;
  }
  return {
    find,
    async get(scope: SettingsScope): Promise<{ id: string | null; settings: EventWebhookSettings }> {
      const t = await find(scope);
      return { id: t?.id ?? null, settings: settingsOf(t) };
    },
    /**
     * Applies `patch`; a webhook with no URL yet is kept only once it has one (SendGrid's settings
     * exist before a URL is set: without one they read back as the defaults).
     */
    async update(scope: SettingsScope, patch: SettingsPatch): Promise<{ id: string | null; settings: EventWebhookSettings }> {
      const { domainId, tenantId } = scope;
      const t = await find(scope);
      const next: EventWebhookSettings = { ...settingsOf(t), ...patch };
      if (!next.url) {
        if (t) await deps.webhooks.remove(t.id);
        deps.onChange?.();
        return { id: null, settings: { ...next, url: "" } };
      }
      const saved = t ? await deps.webhooks.update({ ...t, url: next.url, extra: extraOf(next) })
        : await deps.webhooks.create({ domainId, events: [], url: next.url, format: "sendgrid", extra: extraOf(next), ...(tenantId ? { tenantId } : {}) });
      deps.onChange?.();
      return { id: saved.id, settings: settingsOf(saved) };
    },
  };
}

export type EventWebhookSettingsService = ReturnType<typeof createEventWebhookSettings>;
