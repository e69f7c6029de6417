// The rights of postern, and grants as words of a vocabulary mapped onto them. A key may store
// postern's own rights (`mail.send`) or words of a vendor's vocabulary; the surfaces keep those
// vocabularies (src/api/grants.ts) and hand them to every decision that reads grants.

export const RIGHTS = [
  "mail.send", "mail.read", "events.read", "stats.read",
  "domains.read", "domains.manage", "keys.read", "keys.manage", "credentials.read", "credentials.manage",
  "webhooks.read", "webhooks.manage", "suppressions.read", "suppressions.manage", "validation.use",
  "templates.read", "templates.manage", "lists.read", "lists.manage", "inbound.read", "inbound.manage",
  "bots.use", "account.read", "account.manage",
  "alerts.read", "alerts.manage",
] as const;

export type Right = (typeof RIGHTS)[number];

export const ALL_RIGHTS: ReadonlySet<Right> = new Set(RIGHTS);

/** The rights one grant gives, or null for a word the vocabulary does not know. */
export type GrantVocabulary = (grant: string) => Right[] | null;

/** postern's own rights, as grants. */
export const ownRights: GrantVocabulary = (grant) => ((ALL_RIGHTS as ReadonlySet<string>).has(grant) ? [grant as Right] : null);

export const isKnownGrant = (grant: string, vocabulary: GrantVocabulary) => vocabulary(grant) !== null;

/** The union of the rights `grants` give. */
export function rightsOfGrants(grants: readonly string[], vocabulary: GrantVocabulary): Set<Right> {
  const out = new Set<Right>();
  for (const g of grants) for (const r of vocabulary(g) ?? []) out.add(r);
  return out;
}
