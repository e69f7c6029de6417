// Builds the signed bytes of one delivery: composes (with tracking) and DKIM-signs, sharing one
// signed copy among all recipients when the content does not differ per recipient.
import type { DkimKey } from "../../core/model.ts";
import type { StoredAttachment, StoredMessage } from "../../core/store-port.ts";
import { prepareMessage, type ComposeDeps, type PreparedMessage } from "./compose.ts";
import { createSigner } from "./sign.ts";
import { createRecentCache } from "../../core/recent-cache.ts";

/** Messages kept composed (and signed, when every recipient gets the same bytes) for their other recipients: one in use stays
 *  (core/recent-cache.ts), so a few dozen serve interleaved campaigns; 256 held about 3 MB of peak RSS for nothing on single-recipient mail. */
const CACHE_SIZE = 32;
/** Signed bytes kept at most: 32 large messages (attachments) would hold gigabytes, in each signing worker. */
const CACHE_BYTES = 16 * 1024 * 1024;

export interface MessageBuilder {
  /** The DKIM-signed MIME bytes of `message` for one recipient. */
  build(message: StoredMessage, attachments: StoredAttachment[], recipientId: string): Promise<Uint8Array>;
  close(): void;
}

interface Entry { prepared: Promise<PreparedMessage>; signed: Promise<Uint8Array> | null; bytes: number }

export interface LocalBuilderDeps {
  compose: ComposeDeps;
  keysFor: (domain: string) => Promise<DkimKey[]>;
  now: () => number;
  /** The base of a domain's tracking links (its own tracking host once usable); default compose.publicUrl. */
  linkBaseFor?: (domain: string) => string | Promise<string>;
}

/** Builds on the calling thread. */
export function createLocalBuilder(deps: LocalBuilderDeps): MessageBuilder {
  const signer = createSigner({ keysFor: deps.keysFor, now: deps.now });
  const cache = createRecentCache<string, Entry>(CACHE_SIZE, { maxBytes: CACHE_BYTES, sizeOf: (e) => e.bytes });
  const drop = (id: string, e: Entry) => { if (cache.get(id) === e) cache.delete(id); };
  const prepare = async (message: StoredMessage, attachments: StoredAttachment[]) => {
    const base = deps.linkBaseFor ? await deps.linkBaseFor(message.domain) : deps.compose.publicUrl;
    return prepareMessage(message, attachments, { ...deps.compose, publicUrl: base });
  };
  return {
    async build(message, attachments, recipientId) {
      let entry = cache.get(message.id);
      if (!entry) {
        entry = { prepared: prepare(message, attachments), signed: null, bytes: 0 };
        cache.set(message.id, entry);
      }
      const e = entry;
      const prepared = await e.prepared.catch((err) => { drop(message.id, e); throw err; });
      const sign = async () => signer.sign(await prepared.build(recipientId), message.domain);
      if (prepared.isPerRecipient) return sign();
      // A failed build must not stay cached: the retry gets a fresh attempt.
      return (e.signed ??= sign().then((b) => {
        // Counted once signed: out and back in, so the cache counts the entry's new size.
        if (cache.get(message.id) === e) { cache.delete(message.id); e.bytes = b.byteLength; cache.set(message.id, e); }
        return b;
      }, (err) => { e.signed = null; throw err; }));
    },
    close() { cache.clear(); },
  };
}
