import { describe, expect, test } from "bun:test";
import { isSubscribed } from "../../src/webhooks/targets.ts";
import type { MessageEvent } from "../../src/core/model.ts";
import type { WebhookTarget } from "../../src/core/store-port.ts";

const event = (type: MessageEvent["type"], extra: Partial<MessageEvent> = {}): MessageEvent =>
  ({ id: "e", type, messageId: "m", recipient: "a@b.test", domain: "a.test", timestamp: 0, tags: [], metadata: {}, ...extra });
const target = (format: WebhookTarget["format"], events: string[], extra: Record<string, unknown> = {}): WebhookTarget =>
  ({ id: "t", domainId: 1, events, url: "https://hook.test/", format, extra, createdAt: 0 });

const bounce = event("failed", { severity: "permanent", code: 550 });
const policy = event("failed", { severity: "permanent", reason: "suppressed", suppressedBy: "bounces" });
const softFail = event("failed", { severity: "temporary", code: 450 });

describe("which targets an event goes to", () => {
  test.each([
    ["SparkPost, exact types: delivery only", target("sparkpost", ["delivered"], { events: ["delivery"] }), event("delivered"), true],
    ["SparkPost, exact types: bounce is not policy_rejection", target("sparkpost", ["failed"], { events: ["bounce"] }), policy, false],
    ["SparkPost, exact types: policy_rejection", target("sparkpost", ["failed"], { events: ["policy_rejection"] }), policy, true],
    ["SparkPost, exact types: bounce", target("sparkpost", ["failed"], { events: ["bounce"] }), bounce, true],
    ["SparkPost, exact types: a temporary failure is a delay", target("sparkpost", ["deferred"], { events: ["delay"] }), softFail, true],
    ["SparkPost, exact types beat the native list", target("sparkpost", ["opened", "delivered"], { events: ["open"] }), event("delivered"), false],
    ["SparkPost, inactive", target("sparkpost", ["delivered"], { events: ["delivery"], active: false }), event("delivered"), false],
    ["SparkPost, native names only", target("sparkpost", ["delivered"]), event("delivered"), true],
    ["SparkPost, SparkPost types in events", target("sparkpost", ["delivery"]), event("delivered"), true],
    ["SparkPost, no list: everything", target("sparkpost", []), event("clicked"), true],
    ["Mailgun permanent_fail gets a hard bounce", target("mailgun", ["failed"], { mailgunId: "permanent_fail" }), bounce, true],
    ["Mailgun permanent_fail does not get a soft one", target("mailgun", ["failed"], { mailgunId: "permanent_fail" }), softFail, false],
    ["Mailgun temporary_fail gets a deferral", target("mailgun", ["deferred"], { mailgunId: "temporary_fail" }), event("deferred"), true],
    ["Mailgun's unsubscribe alias", target("mailgun", ["unsubscribed"], { mailgunId: "unsubscribe" }), event("unsubscribed"), true],
    ["native clicked", target("native", ["clicked"], { webhookType: "clicked" }), event("clicked"), true],
    ["native clicked does not get opens", target("native", ["clicked"], { webhookType: "clicked" }), event("opened"), false],
    ["inactive of any format", target("mailgun", ["delivered"], { mailgunId: "delivered", active: false }), event("delivered"), false],
    ["SendGrid gets everything", target("sendgrid", ["delivered"]), event("opened"), true],
  ] as const)("%s", (_name, t, e, expected) => {
    expect(isSubscribed(t, e)).toBe(expected);
  });
});
