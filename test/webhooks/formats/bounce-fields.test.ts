// One bounce verdict, three vendors' words: SparkPost bounce_class, SendGrid bounce/blocked with
// bounce_classification, Mailgun severity/reason/bounce-type, for hard, soft and block failures.
import { describe, expect, test } from "bun:test";
import type { MessageEvent } from "../../../src/core/model.ts";
import { sparkpostEvent } from "../../../src/webhooks/formats/sparkpost-event.ts";
import { sendgridEvent } from "../../../src/webhooks/formats/sendgrid.ts";
import { mailgunEventData } from "../../../src/webhooks/formats/mailgun.ts";

const failed = (extra: Partial<MessageEvent>): MessageEvent => ({ id: "e1", type: "failed", messageId: "m1", recipient: "a@example.net",
  domain: "example.com", timestamp: 1_700_000_000_000, severity: "permanent", tags: [], metadata: {}, ...extra });
const formats = (e: MessageEvent) => {
  const ctx = { event: e, message: null };
  const sp = (sparkpostEvent(ctx).msys as { message_event: Record<string, unknown> }).message_event;
  const sg = sendgridEvent(ctx);
  const mg = mailgunEventData(ctx);
  return { sp: [sp.type, sp.bounce_class], sg: [sg.event, sg.type, sg.bounce_classification],
    mg: [mg.severity, mg.reason, (mg["delivery-status"] as Record<string, unknown>)["bounce-type"]] };
};

describe("bounce fields per vendor", () => {
  test.each([
    ["hard: unknown user", { code: 550, enhancedCode: "5.1.1", description: "550 5.1.1 user unknown", bounceClass: 10 },
      { sp: ["bounce", "10"], sg: ["bounce", "bounce", "Invalid Address"], mg: ["permanent", "bounce", "hard"] }],
    ["soft: mailbox full", { code: 552, enhancedCode: "5.2.2", description: "552 5.2.2 over quota", bounceClass: 22 },
      { sp: ["bounce", "22"], sg: ["bounce", "blocked", "Mailbox Unavailable"], mg: ["permanent", "generic", "soft"] }],
    ["block: listed IP", { code: 554, enhancedCode: "5.7.1", description: "554 5.7.1 blocked using zen.spamhaus.org", bounceClass: 51 },
      { sp: ["bounce", "51"], sg: ["bounce", "blocked", "Reputation"], mg: ["permanent", "espblock", "soft"] }],
    ["block: spam content", { code: 550, enhancedCode: "5.7.1", description: "550 5.7.1 likely unsolicited mail", bounceClass: 52 },
      { sp: ["bounce", "52"], sg: ["bounce", "blocked", "Content"], mg: ["permanent", "espblock", "soft"] }],
    ["expired in our queue", { code: 451, enhancedCode: "4.3.0", description: "gave up after 9 attempts: 451 try later", reason: "old", bounceClass: 24 },
      { sp: ["bounce", "24"], sg: ["bounce", "blocked", "Technical Failure"], mg: ["permanent", "old", "soft"] }],
  ] as const)("%s", (_name, extra, want) => {
    expect(formats(failed(extra))).toEqual(want as never);
  });

  test("events stored before classification are classified from their code and text", () => {
    expect(formats(failed({ code: 550, enhancedCode: "5.0.0", description: "550 5.0.0 <a@example.net>... No such user" })).sp).toEqual(["bounce", "10"]);
    expect(formats(failed({ code: 550, enhancedCode: "5.7.1", description: "550 5.7.1 Relaying denied" })).sg).toEqual(["bounce", "blocked", "Technical Failure"]);
  });

  test("a deferral carries its class; a suppressed-address drop is SparkPost's admin class", () => {
    const delay = formats({ ...failed({ code: 421, enhancedCode: "4.7.0", description: "421 4.7.0 try again later", bounceClass: 70 }), type: "deferred", severity: "temporary" });
    expect(delay.sp).toEqual(["delay", "70"]);
    expect(delay.sg).toEqual(["deferred", undefined, "Frequency or Volume Too High"]);
    expect(formats(failed({ reason: "suppressed", suppressedBy: "bounces" })).sp).toEqual(["policy_rejection", "25"]);
  });
});
