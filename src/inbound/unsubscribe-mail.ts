// Mail to an unsubscribe mailbox (Mailgun's %unsubscribe_email% and %tag_unsubscribe_email%, the
// address a List-Unsubscribe header names): the recipient its token names leaves all the
// domain's mail, or the message's tags, recorded like a click on the matching link.
import type { Store } from "../core/store-port.ts";
import type { Hit, InteractionRecorder } from "../tracking/interactions.ts";
import { TAG_UNSUBSCRIBE_SCOPE } from "../tracking/rewrite.ts";
import { decodeUnsubscribeAddress } from "./verp.ts";

export function createUnsubscribeMailboxes(deps: { store: Store; secret: string; interactions: InteractionRecorder }) {
  return {
    /** True when `address` is one of our unsubscribe mailboxes (its token checks out). */
    isAddress: (address: string) => decodeUnsubscribeAddress(address, deps.secret) !== null,
    /** Records the unsubscribes the envelope's mailboxes name; returns how many were ours. */
    async handle(rcptTo: string[], hit: Hit): Promise<number> {
      let n = 0;
      for (const address of rcptTo) {
        const ids = decodeUnsubscribeAddress(address, deps.secret);
        if (!ids) continue;
        const message = await findMessage(deps.store, ids.messageId);
        if (!message) continue;
        const payload = { kind: "unsubscribe" as const, messageId: ids.messageId, recipientId: ids.recipientId, domain: message.domain,
          ...(ids.scope === "tags" ? { url: TAG_UNSUBSCRIBE_SCOPE } : {}) };
        // A mailbox in List-Unsubscribe is the RFC 2369 form of a list unsubscribe; the tag one stays a tag unsubscribe.
        if (await deps.interactions.record(payload, hit, { isListUnsubscribe: ids.scope === "all" })) n++;
      }
      return n;
    },
  };
}

async function findMessage(store: Store, id: string) {
  for (const name of store.zoneNames()) {
    const m = await store.zone(name).getMessage(id);
    if (m) return m;
  }
  return null;
}

export type UnsubscribeMailboxes = ReturnType<typeof createUnsubscribeMailboxes>;
