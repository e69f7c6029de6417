// Inbound mail as the composition root builds it: the receiver, what the SMTP listener asks of it,
// and forwards through the send pipeline. Messages past their expiry ([retention] inbound) are
// purged by the retention sweeper (src/ops/retention.ts); `purge` stays for `postern mail purge`.
import { ACCOUNT_ID } from "../../core/account.ts";
import type { Domain, Principal } from "../../core/model.ts";
import type { SendService } from "../../core/send.ts";
import type { Logger } from "../../log.ts";
import { createReceiver, type Delivery, type ReceiverDeps } from "./receiver.ts";
import { forwardCopy } from "./forward-copy.ts";

export interface InboundMailDeps extends Omit<ReceiverDeps, "forward"> {
  sender: SendService;
  zoneNames(): string[];
  log: Logger;
}

export function createInboundMail(deps: InboundMailDeps) {
  const receiver = createReceiver({
    ...deps,
    async forward(domain: Domain, raw: Uint8Array, recipient: string, to: string) {
      const principal: Principal = { accountId: ACCOUNT_ID, keyId: "inbound", kind: "domain", domain, grants: [] };
      const copy = forwardCopy(raw, recipient, domain.name);
      await deps.sender.send(principal, { domain: domain.name, source: "forward", from: { email: recipient },
        envelopes: [{ to: [{ email: to }], subject: "", raw: copy }] });
    },
  });
  const purge = async () => {
    for (const z of deps.zoneNames()) {
      try {
        const n = await deps.zone(z).purgeInbound(deps.now());
        if (n) deps.log.info("expired received messages deleted", { zone: z, count: n });
      } catch (e) { deps.log.warn("purging received messages failed", { zone: z, error: (e as Error).message }); }
    }
  };
  return {
    receiver,
    /** Registers who hears of posts written to the outbox (the webhook pipeline). */
    subscribe: receiver.subscribe,
    /** What the SMTP listener asks. */
    listener: { accepts: async (address: string) => (await receiver.receivingDomain(address)) !== null, open: (d: Delivery) => receiver.open(d) },
    purge,
  };
}
