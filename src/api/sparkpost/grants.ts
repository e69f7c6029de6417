// SparkPost's API-key grants (the names SparkPost's own app lists) as postern's rights: a
// `…/modify` or `…/manage` grant includes the matching read, as SparkPost's "Read/Write" does.
// Grants postern has nothing for (subaccounts, …) are accepted and give no right.
import type { Right } from "../../core/grants.ts";

/** SparkPost grant → rights. */
const SPARKPOST: Record<string, Right[]> = {
  "metrics/view": ["stats.read"],
  "message_events/view": ["events.read"],
  "webhooks/view": ["webhooks.read"],
  "webhooks/modify": ["webhooks.read", "webhooks.manage"],
  "templates/view": ["templates.read"],
  "templates/preview": ["templates.read"],
  "templates/modify": ["templates.read", "templates.manage"],
  "transmissions/view": ["mail.read"],
  "transmissions/modify": ["mail.read", "mail.send"],
  "smtp/inject": ["mail.send"],
  "recipient_lists/manage": ["lists.read", "lists.manage"],
  "tracking_domains/view": ["domains.read"],
  "tracking_domains/manage": ["domains.read", "domains.manage"],
  "sending_domains/manage": ["domains.read", "domains.manage"],
  "inbound_domains/manage": ["inbound.read", "inbound.manage"],
  "relay_webhooks/view": ["inbound.read"],
  "relay_webhooks/modify": ["inbound.read", "inbound.manage"],
  "suppression_lists/manage": ["suppressions.read", "suppressions.manage"],
  "api_keys/manage": ["keys.read", "keys.manage", "credentials.read", "credentials.manage"],
  "account/manage": ["account.read", "account.manage"],
  // The IP pool listings (read-only here) are account information.
  "ip_pools/view": ["account.read"],
  "ip_pools/manage": ["account.read"],
  "recipient-validation/preview": ["validation.use"],
  "recipient-validation/manage": ["validation.use"],
  "alerts/manage": ["alerts.read", "alerts.manage"],
};

const NO_RIGHT = [
  "users/self-manage", "users/manage", "users/token-manage", "grants/view", "subaccount/manage", "subaccount/view",
  "messaging-tools/manage", "ab-testing/manage", "signals/manage",
  "support/manage", "events/ingest", "data_privacy/manage",
];

/** The rights of a SparkPost grant, or null for a word that is not one. */
export function sparkpostGrantRights(grant: string): Right[] | null {
  if (SPARKPOST[grant]) return SPARKPOST[grant]!;
  return NO_RIGHT.includes(grant) ? [] : null;
}

/** The SparkPost grant that gives `right` (for SparkPost's own wording of a refusal). */
export function sparkpostGrantFor(right: Right): string | undefined {
  return Object.entries(SPARKPOST).find(([, rights]) => rights.includes(right))?.[0];
}
