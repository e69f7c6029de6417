// Builds the signed bytes of one delivery: composes (with tracking) and DKIM-signs, sharing one
// signed copy among all recipients when the content does not differ per recipient.
import type { DkimKey } from "../../core/model.ts";
import type { StoredAttachment, StoredMessage } from "../../core/store-port.ts";
import { prepareMessage, type ComposeDeps, type PreparedMessage } from "./compose.ts";
import { createSigner } from "./sign.ts";

const CACHE_SIZE = 256;

export interface MessageBuilder {
  /** The DKIM-signed MIME bytes of `message` for one recipient. */
  build(message: StoredMessage, attachments: StoredAttachment[], recipientId: string): Promise<Uint8Array>;
  close(): void;
}

interface Entry { prepared: PreparedMessage; signed: Promise<Uint8Array> | null }

/** Builds on the calling thread. */
export function createLocalBuilder(deps: { compose: ComposeDeps; keysFor: (domain: string) => Promise<DkimKey[]>; now: () => number }): MessageBuilder {
  const signer = createSigner({ keysFor: deps.keysFor, now: deps.now });
  const cache = new Map<string, Entry>();
  return {
    build(message, attachments, recipientId) {
      let entry = cache.get(message.id);
      if (!entry) {
        if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
        entry = { prepared: prepareMessage(message, attachments, deps.compose), signed: null };
        cache.set(message.id, entry);
      }
      const e = entry;
      const sign = async () => signer.sign(await e.prepared.build(recipientId), message.domain);
      if (e.prepared.isPerRecipient) return sign();
      // A failed build must not stay cached: the retry gets a fresh attempt.
      return (e.signed ??= sign().catch((err) => { e.signed = null; throw err; }));
    },
    close() { cache.clear(); },
  };
}
