// Queue policy for held mail (scheduled-send batches): a paused recipient waits without an attempt
// counted; a cancelled one, or one paused past its lifetime, fails with a drop that suppresses nothing.
import { describe, expect, test } from "bun:test";
import { applyHold, applyOutcome, PAUSED_RECHECK_MS, spreadOf, WAIT_SPREAD_MS } from "../../../src/mta/queue/policy.ts";
import { suppressionsFor } from "../../../src/core/suppression-policy.ts";
import { classifyReply } from "../../../src/mta/delivery/outcome.ts";
import type { StoredMessage, StoredRecipient } from "../../../src/core/store-port.ts";

const T = 1_800_000_000_000;
const msg = { id: "m1", domain: "a.test", tags: ["t"], metadata: { k: "v" } } as unknown as StoredMessage;
const rcpt: StoredRecipient = { id: "r1", messageId: "m1", email: "Bob@B.test", rcptDomain: "b.test", kind: "to", status: "deferred", attempts: 2,
  nextAttemptAt: T, firstAttemptAt: T - 5000, expiresAt: T + 60_000, lastCode: 451, lastResponse: "later", mx: "mx.b.test", updatedAt: T };

describe("applyHold", () => {
  test("paused: waits, keeps its attempts and state, no event", () => {
    const { update, events } = applyHold(rcpt, msg, "pause", T);
    expect(update).toMatchObject({ id: "r1", status: "deferred", attempts: 2, firstAttemptAt: T - 5000, nextAttemptAt: T + PAUSED_RECHECK_MS, lastCode: 451 });
    expect(events).toEqual([]);
  });

  test("cancelled: failed with a cancelled drop that puts the address on no list", () => {
    const { update, events } = applyHold(rcpt, msg, "cancel", T);
    expect(update).toMatchObject({ status: "failed", attempts: 2 });
    expect(events).toMatchObject([{ type: "failed", severity: "permanent", reason: "cancelled", recipient: "bob@b.test", tags: ["t"] }]);
    expect(events[0]!.code).toBeUndefined();
    expect(suppressionsFor(events)).toEqual([]);
  });

  test("paused past its lifetime: dropped too", () => {
    const { update, events } = applyHold(rcpt, msg, "pause", T + 60_000);
    expect(update.status).toBe("failed");
    expect(events[0]?.description).toBe("scheduled send paused past its lifetime");
  });
});

describe("waiting for a warm-up's next hour", () => {
  const policy = { schedule: [1000], lifetimeMs: 86_400_000 };
  const hour = T + 10_000;
  const waitOutcome = { kind: "deferred" as const, permanent: false, enhancedCode: "4.7.0", message: "warm-up cap of new reached; next hour", retryAt: hour };

  test("deferred until a little after the hour, no attempt counted, the reason in the event", () => {
    const { update, events } = applyOutcome({ ...rcpt, expiresAt: T + 86_400_000 }, msg, waitOutcome, T, policy);
    expect(update).toMatchObject({ status: "deferred", attempts: 2, firstAttemptAt: T - 5000, lastCode: null, lastResponse: "warm-up cap of new reached; next hour" });
    expect(update.nextAttemptAt).toBe(hour + spreadOf("r1"));
    expect(events).toMatchObject([{ type: "deferred", severity: "temporary", description: "warm-up cap of new reached; next hour", recipient: "bob@b.test" }]);
    expect(events[0]!.attempt).toBeUndefined();
  });

  test("a wait that goes on for the same reason records no second event", () => {
    const waiting = { ...rcpt, expiresAt: T + 86_400_000, lastCode: null, lastResponse: "warm-up cap of new reached; next hour" };
    const { update, events } = applyOutcome(waiting, msg, { ...waitOutcome, retryAt: hour + 3_600_000 }, T + 3_600_000, policy);
    expect(update).toMatchObject({ status: "deferred", attempts: 2, nextAttemptAt: hour + 3_600_000 + spreadOf("r1") });
    expect(events).toEqual([]);
  });

  test("recipients spread over the first minutes of the hour", () => {
    const offsets = new Set(Array.from({ length: 50 }, (_, i) => spreadOf(`r${i}`)));
    expect(offsets.size).toBeGreaterThan(40);
    for (const o of offsets) expect(o >= 0 && o < WAIT_SPREAD_MS).toBe(true);
  });

  test("never past the lifetime: due at its end, then failed as any expired deferral", () => {
    const late = { ...waitOutcome, retryAt: T + 3_600_000 };
    expect(applyOutcome(rcpt, msg, late, T, policy).update.nextAttemptAt).toBe(rcpt.expiresAt);
    expect(applyOutcome(rcpt, msg, late, rcpt.expiresAt, policy).update.status).toBe("failed");
  });
});

describe("a refusal of our sender", () => {
  const policy = { schedule: [1000], lifetimeMs: 86_400_000 };
  // Haraka's access plugin refuses a listed sender domain with words that name nothing (haraka-plugin-access).
  const reply = { responseCode: 550, response: "550 You are not welcome here.", errorCode: "EENVELOPE" };

  test("at MAIL FROM it is a block (SendGrid's blocks list, no bounce suppression); the same reply to RCPT TO is a refused address", () => {
    const atMail = applyOutcome(rcpt, msg, classifyReply({ ...reply, command: "MAIL FROM" }), T, policy).events;
    expect(atMail).toMatchObject([{ type: "failed", severity: "permanent", bounceClass: 50 }]);
    expect(suppressionsFor(atMail).map((x) => x.type)).toEqual(["blocks"]);
    const atRcpt = applyOutcome(rcpt, msg, classifyReply({ ...reply, command: "RCPT TO" }), T, policy).events;
    expect(atRcpt).toMatchObject([{ type: "failed", bounceClass: 10 }]);
    expect(suppressionsFor(atRcpt).map((x) => x.type)).toEqual(["bounces"]);
  });
});
