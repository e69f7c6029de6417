// postern's own failures (neutral in core) as every format and the Mailgun events API report
// them: the codes and words they carried before the core lost them.
import { describe, expect, test } from "bun:test";
import type { MessageEvent } from "../../../src/core/model.ts";
import { reportedCode, reportedDescription, reportedReason } from "../../../src/webhooks/formats/reported.ts";
import { sparkpostEvent } from "../../../src/webhooks/formats/sparkpost-event.ts";
import { sendgridEvent } from "../../../src/webhooks/formats/sendgrid.ts";
import { mailgunEventData } from "../../../src/webhooks/formats/mailgun.ts";
import { toMailgunEvent } from "../../../src/api/mailgun/event-mapper.ts";

const ev = (type: MessageEvent["type"], extra: Partial<MessageEvent>): MessageEvent => ({ id: "e1", type, messageId: "m1", recipient: "a@example.net",
  domain: "example.com", timestamp: 1_700_000_000_000, tags: [], metadata: {}, ...extra });
const suppressed = ev("failed", { severity: "permanent", reason: "suppressed", suppressedBy: "complaints" });
const cancelled = ev("failed", { severity: "permanent", reason: "cancelled", description: "scheduled send cancelled" });
const testMode = ev("delivered", { testMode: true, description: "test mode: accepted, not sent" });

describe("reported codes and words", () => {
  test.each([
    ["suppressed", suppressed, [605, "Not delivering to previously complained address", "suppress-complaint"]],
    ["cancelled", cancelled, [605, "scheduled send cancelled", "cancelled"]],
    ["test mode", testMode, [650, "test mode: accepted, not sent", undefined]],
    ["a receiver's reply", ev("failed", { severity: "permanent", code: 550, description: "no such user" }), [550, "no such user", undefined]],
  ] as const)("%s", (_n, e, want) => {
    expect([reportedCode(e), reportedDescription(e), reportedReason(e)]).toEqual([...want]);
  });

  test("each format shows a suppressed recipient as it always did", () => {
    const ctx = { event: suppressed, message: null };
    const mg = mailgunEventData(ctx);
    expect([mg.reason, mg["delivery-status"]]).toMatchObject(["suppress-complaint", { code: 605, message: "Not delivering to previously complained address" }]);
    expect(sendgridEvent(ctx)).toMatchObject({ event: "dropped", reason: "Not delivering to previously complained address" });
    expect((sparkpostEvent(ctx).msys as Record<string, unknown>).message_event)
      .toMatchObject({ type: "policy_rejection", error_code: "605", reason: "Not delivering to previously complained address", bounce_class: "25" });
    expect(toMailgunEvent(suppressed, null)).toMatchObject({ reason: "suppress-complaint",
      "delivery-status": { code: 605, message: "Not delivering to previously complained address", description: "Not delivering to previously complained address" } });
    expect(toMailgunEvent(testMode, null)).toMatchObject({ "delivery-status": { code: 650 } });
    expect(sendgridEvent({ event: cancelled, message: null }).event).toBe("dropped");
  });
});
