// The stat key: each kind of event reduced to what the vendor stats count, stored as text and read back.
import { describe, expect, test } from "bun:test";
import type { MessageEvent } from "../../../src/core/model.ts";
import { decodeStatKey, encodeStatKey, statKeyOf } from "../../../src/core/stats/stat-key.ts";

const ev = (type: MessageEvent["type"], extra: Partial<MessageEvent> = {}): MessageEvent =>
  ({ id: "e", type, messageId: "m", recipient: "a@b.test", domain: "a.test", timestamp: 1, tags: [], metadata: {}, ...extra });
const key = (e: MessageEvent) => encodeStatKey(statKeyOf(e));

describe("statKeyOf", () => {
  test("deliveries and delays: first attempt or a retry", () => {
    expect(key(ev("delivered", { attempt: 1, mx: "mx", tls: true }))).toBe("delivered");
    expect(key(ev("delivered", { attempt: 3 }))).toBe("delivered;retry");
    expect(key(ev("deferred"))).toBe("deferred");
    expect(key(ev("accepted"))).toBe("accepted");
  });

  test("failures: temporary, drops by list, cancelled, and bounces with class, report list and band", () => {
    expect(key(ev("failed", { severity: "temporary", code: 451 }))).toBe("failed;temporary");
    expect(key(ev("failed", { severity: "permanent", reason: "suppressed", suppressedBy: "complaints" }))).toBe("failed;reason=suppressed;by=complaints");
    expect(key(ev("failed", { severity: "permanent", reason: "suppressed" }))).toBe("failed;reason=suppressed;by=bounces");
    expect(key(ev("failed", { severity: "permanent", reason: "cancelled" }))).toBe("failed;reason=cancelled");
    expect(key(ev("failed", { severity: "permanent", code: 550, enhancedCode: "5.1.1", description: "no such user", attempt: 1 }))).toBe("failed;class=10;band=in");
    expect(key(ev("failed", { severity: "permanent", code: 550, enhancedCode: "5.1.2", description: "no such domain", attempt: 1 })))
      .toBe("failed;class=10;listed=invalid;band=in");
    expect(key(ev("failed", { severity: "permanent", code: 554, enhancedCode: "5.7.1", description: "Message rejected as spam", attempt: 1 })))
      .toMatch(/^failed;class=5\d;listed=blocks;band=in$/);
    expect(key(ev("failed", { severity: "permanent", code: 550, enhancedCode: "5.1.1", description: "user unknown" }))).toBe("failed;class=10;band=out");
  });

  test("opens and clicks: bot verdict and firsts; events recorded without firsts have none", () => {
    expect(key(ev("opened", { isBot: true, firsts: ["once", "engaged"] }))).toBe("opened;bot;firsts=once+engaged");
    expect(key(ev("clicked", { firsts: [] }))).toBe("clicked;firsts=");
    expect(key(ev("clicked"))).toBe("clicked");
    expect(key(ev("complained"))).toBe("complained");
  });

  test("decode reads back what encode wrote", () => {
    const keys = [{ type: "failed", reason: "suppressed", suppressedBy: "unsubscribes" }, { type: "failed", bounceClass: 51, listed: "blocks", band: "out" },
      { type: "failed", temporary: true }, { type: "delivered", retry: true }, { type: "opened", bot: true, firsts: ["once", "human-engaged"] },
      { type: "clicked", firsts: [] }, { type: "unsubscribed" }] as const;
    for (const k of keys) expect(decodeStatKey(encodeStatKey(k as never))).toEqual(k as never);
  });
});
