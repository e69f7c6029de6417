// SendGrid's API-key scopes (`suppression.read`, `mail.send`) as postern's rights: a
// `<prefix>.read` scope gives the read right, any other verb of the prefix read and write.
import type { Right } from "../../core/grants.ts";

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
  // ips.read, ips.pools.read, ips.warmup.read: the egress listings (read-only here).
  ["ips", "account.read", "account.read"],
  ["alerts", "alerts.read", "alerts.manage"],
];

/** The rights of a SendGrid scope, or null for a word that is not one. */
export function sendgridScopeRights(scope: string): Right[] | null {
  if (scope === "mail.send") return ["mail.send"];
  if (scope === "mail.batch.read") return ["mail.read"];
  for (const [prefix, read, write] of SENDGRID) {
    if (scope !== prefix && !scope.startsWith(`${prefix}.`)) continue;
    return scope.endsWith(".read") ? [read] : [read, write];
  }
  return null;
}
