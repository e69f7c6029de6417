// Events as versions before neutral reasons stored them (Mailgun's 605 / 650 and words in the
// core's fields), what the migration of both engines makes of them, and how a webhook reads them:
// the same on the wire as before.
import { expect } from "bun:test";
import type { MessageEvent } from "../../src/core/model.ts";
import { mailgunEventData } from "../../src/webhooks/formats/mailgun.ts";

const base = { messageId: "m1", recipient: "a@x.test", domain: "a.test", tags: ["t"], metadata: { k: "v" } };

/** id → [type, the stored data (the event without its columns), the data after the migration]. */
export const LEGACY: Record<string, [MessageEvent["type"], Record<string, unknown>, Record<string, unknown>]> = {
  e1: ["failed", { severity: "permanent", code: 605, description: "Not delivering to previously unsubscribed address", reason: "suppress-unsubscribe", tags: ["t"], metadata: { k: "v" } },
    { severity: "permanent", reason: "suppressed", suppressedBy: "unsubscribes", tags: ["t"], metadata: { k: "v" } }],
  // Older still: no reason, the list only in the words.
  e2: ["failed", { severity: "permanent", code: 605, description: "Not delivering to previously complained address", tags: [], metadata: {} },
    { severity: "permanent", reason: "suppressed", suppressedBy: "complaints", tags: [], metadata: {} }],
  e3: ["failed", { severity: "permanent", code: 605, reason: "cancelled", description: "scheduled send cancelled", tags: [], metadata: {} },
    { severity: "permanent", reason: "cancelled", description: "scheduled send cancelled", tags: [], metadata: {} }],
  e4: ["delivered", { code: 650, description: "test mode: accepted, not sent", tags: [], metadata: {} },
    { testMode: true, description: "test mode: accepted, not sent", tags: [], metadata: {} }],
  // A receiver's reply is left alone.
  e5: ["failed", { severity: "permanent", code: 550, description: "user unknown", tags: [], metadata: {} },
    { severity: "permanent", code: 550, description: "user unknown", tags: [], metadata: {} }],
};

export const legacyEvent = (id: string): MessageEvent =>
  ({ ...base, id, type: LEGACY[id]![0], timestamp: 1_700_000_000_000, ...LEGACY[id]![1] }) as MessageEvent;

/** Mailgun's webhook reason, delivery-status code and message of each, as before the migration. */
const WIRE: Record<string, unknown[]> = {
  e1: ["suppress-unsubscribe", 605, "Not delivering to previously unsubscribed address"],
  e2: ["suppress-complaint", 605, "Not delivering to previously complained address"],
  e3: ["cancelled", 605, "scheduled send cancelled"],
  e4: [undefined, 650, "test mode: accepted, not sent"],
  e5: ["bounce", 550, "user unknown"],
};

/** `events` (read back after the migration) are today's events, and Mailgun's webhook shows what it showed before. */
export function expectMigrated(events: MessageEvent[]) {
  const byId = new Map(events.map((e) => [e.id, e]));
  for (const [id, [, , after]] of Object.entries(LEGACY)) {
    const e = byId.get(id)!;
    const { id: _i, type: _t, messageId: _m, recipient: _r, domain: _d, timestamp: _ts, ...data } = e;
    expect(data).toEqual(after as never);
    const d = mailgunEventData({ event: e, message: null });
    const status = d["delivery-status"] as Record<string, unknown>;
    expect([d.reason, status.code, status.message]).toEqual(WIRE[id]!);
  }
}
