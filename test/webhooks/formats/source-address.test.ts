// The delivery events' source address in each webhook format: SendGrid's `ip` ("the IP address used
// to send the email"), Mailgun's and the native API's `envelope.sending-ip`, SparkPost's
// `sending_ip` and `ip_pool` (the attempt's pool over the one the message asked for).
import { describe, expect, test } from "bun:test";
import type { MessageEvent } from "../../../src/core/model.ts";
import { sendgridEvent } from "../../../src/webhooks/formats/sendgrid.ts";
import { mailgunEventData } from "../../../src/webhooks/formats/mailgun.ts";
import { sparkpostEvent } from "../../../src/webhooks/formats/sparkpost-event.ts";

const delivered: MessageEvent = { id: "e1", type: "delivered", messageId: "m1", recipient: "b@b.test", domain: "a.test", timestamp: 1_800_000_000_000,
  code: 250, description: "250 ok", mx: "mx.b.test", tags: [], metadata: {}, sendingIp: "127.0.0.3", ipPool: "bulk" };
const opened: MessageEvent = { id: "e2", type: "opened", messageId: "m1", recipient: "b@b.test", domain: "a.test", timestamp: 1_800_000_000_000,
  ip: "198.51.100.9", tags: [], metadata: {} };

describe("the source address in webhook events", () => {
  test("SendGrid: ip is the sending address on delivery events, the reader's on engagement", () => {
    expect(sendgridEvent({ event: delivered, message: null }).ip).toBe("127.0.0.3");
    expect(sendgridEvent({ event: opened, message: null }).ip).toBe("198.51.100.9");
    expect(sendgridEvent({ event: { ...delivered, sendingIp: undefined }, message: null }).ip).toBeUndefined();
  });

  test("Mailgun (and native): envelope.sending-ip", () => {
    expect(mailgunEventData({ event: delivered, message: null }).envelope).toMatchObject({ "sending-ip": "127.0.0.3", transport: "smtp" });
    expect(mailgunEventData({ event: { ...delivered, sendingIp: undefined }, message: null }).envelope).not.toHaveProperty("sending-ip");
  });

  test("SparkPost: sending_ip and the attempt's ip_pool", () => {
    const body = (e: MessageEvent) => (sparkpostEvent({ event: e, message: null }).msys as Record<string, Record<string, unknown>>).message_event!;
    expect(body(delivered)).toMatchObject({ type: "delivery", sending_ip: "127.0.0.3", ip_pool: "bulk" });
    expect(body({ ...delivered, sendingIp: undefined, ipPool: undefined })).not.toHaveProperty("sending_ip");
  });
});
