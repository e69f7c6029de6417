// The rights of postern and how each vendor's grant vocabulary maps onto them. SparkPost grants
// (`transmissions/modify`), SendGrid scopes (`suppression.read`) and postern's own rights
// (`mail.send`) can all be stored on a key; a `…/modify` or `…/manage` grant includes the
// matching read, as SparkPost's "Read/Write" does. Unknown-to-postern vendor grants (ip_pools,
// subaccounts, …) are accepted and give no right.

export const RIGHTS = [
  "mail.send", "mail.read", "events.read", "stats.read",
  "domains.read", "domains.manage", "keys.read", "keys.manage", "credentials.read", "credentials.manage",
  "webhooks.read", "webhooks.manage", "suppressions.read", "suppressions.manage", "validation.use",
  "templates.read", "templates.manage", "lists.read", "lists.manage", "inbound.read", "inbound.manage",
  "bots.use", "account.read", "account.manage",
] as const;

export type Right = (typeof RIGHTS)[number];

export const ALL_RIGHTS: ReadonlySet<Right> = new Set(RIGHTS);

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
  "recipient-validation/preview": ["validation.use"],
  "recipient-validation/manage": ["validation.use"],
};

const SPARKPOST_NO_RIGHT = [
  "users/self-manage", "users/manage", "users/token-manage", "grants/view", "subaccount/manage", "subaccount/view",
  "ip_pools/manage", "ip_pools/view", "messaging-tools/manage", "ab-testing/manage", "alerts/manage", "signals/manage",
  "support/manage", "events/ingest", "data_privacy/manage",
];

/** SendGrid scope prefix → [read right, write right]; `<prefix>.read` gives the first, any other verb both. */
const SENDGRID: [string, Right, Right][] = [
  ["messages", "events.read", "events.read"],
  ["stats", "stats.read", "stats.read"],
  ["api_keys", "keys.read", "keys.manage"],
  ["credentials", "credentials.read", "credentials.manage"],
  ["suppression", "suppressions.read", "suppressions.manage"],
  ["asm", "suppressions.read", "suppressions.manage"],
  ["templates", "templates.read", "templates.manage"],
  ["user.webhooks.event", "webhooks.read", "webhooks.manage"],
  ["user.webhooks.parse", "inbound.read", "inbound.manage"],
  ["validations.email", "validation.use", "validation.use"],
  ["whitelabel", "domains.read", "domains.manage"],
  ["marketing", "lists.read", "lists.manage"],
  ["user.account", "account.read", "account.read"],
];

function sendgridRights(scope: string): Right[] | null {
  if (scope === "mail.send") return ["mail.send"];
  if (scope === "mail.batch.read") return ["mail.read"];
  for (const [prefix, read, write] of SENDGRID) {
    if (scope !== prefix && !scope.startsWith(`${prefix}.`)) continue;
    return scope.endsWith(".read") ? [read] : [read, write];
  }
  return null;
}

const NATIVE = ALL_RIGHTS as ReadonlySet<string>;

/** The rights one grant gives, or null for a grant no vocabulary knows. */
function rightsOfGrant(grant: string): Right[] | null {
  if (NATIVE.has(grant)) return [grant as Right];
  if (SPARKPOST[grant]) return SPARKPOST[grant]!;
  if (SPARKPOST_NO_RIGHT.includes(grant)) return [];
  return sendgridRights(grant);
}

export const isKnownGrant = (grant: string) => rightsOfGrant(grant) !== null;

/** The union of the rights `grants` give. */
export function rightsOfGrants(grants: readonly string[]): Set<Right> {
  const out = new Set<Right>();
  for (const g of grants) for (const r of rightsOfGrant(g) ?? []) out.add(r);
  return out;
}

/** The SparkPost grant that gives `right` (for SparkPost's own wording of a refusal). */
export function sparkpostGrantFor(right: Right): string | undefined {
  return Object.entries(SPARKPOST).find(([, rights]) => rights.includes(right))?.[0];
}
