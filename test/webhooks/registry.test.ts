// Every registered format builds a signed request from stored events and a sample, through the one
// interface fan-out and delivery use; the shared HMAC signature verifies where a format uses it.
import { describe, expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { callbackFormat, formatNamed, formatNames } from "../../src/webhooks/registry.ts";
import type { FormatContext } from "../../src/webhooks/format.ts";
import type { EventContext } from "../../src/webhooks/context.ts";
import { hmacVerify } from "../../src/webhooks/signing.ts";

const pem = generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey.export({ type: "pkcs8", format: "pem" }) as string;
const ctx: FormatContext = { now: 1_800_000_000_000, domain: "example.com", target: null, signingKey: "k", eventWebhookKey: pem,
  accountSigningKey: "k", publicUrl: "http://127.0.0.1:8025", inbound: async () => null, spamCheck: async () => null, oauthToken: async () => "tok", send: async () => { throw new Error("no network in this test"); } };
const event: EventContext = { message: null, event: { id: "e1", type: "delivered", messageId: "m1", recipient: "a@b.test", domain: "example.com",
  timestamp: 1_800_000_000_000, tags: [], metadata: {} } };

describe("the format registry", () => {
  test("lists the event formats and the inbound ones", () => {
    expect(formatNames()).toEqual(["mailgun", "native", "sendgrid", "sparkpost", "bot", "mailgun-route", "mailgun-store", "sendgrid-parse", "sparkpost-relay", "notice"]);
  });

  for (const name of ["mailgun", "native", "sendgrid", "sparkpost", "bot", "notice"]) {
    test(`${name}: a request is JSON and a sample exists`, async () => {
      const f = formatNamed(name);
      const { body } = await f.request([name === "bot" ? { batch: { batch_id: "b" }, events: [] } : event], ctx);
      expect(() => JSON.parse(String(body))).not.toThrow();
      expect(f.sample("delivered", ctx)).toBeTruthy();
      expect(f.batchSize).toBeGreaterThanOrEqual(1);
    });
  }

  test("Mailgun-wire and bot signatures verify with the one HMAC scheme", async () => {
    for (const name of ["mailgun", "native", "bot", "notice"]) {
      const body = JSON.parse(String((await formatNamed(name).request([name === "bot" ? { events: [] } : event], ctx)).body));
      expect(hmacVerify("k", body.signature)).toBe(true);
      expect(hmacVerify("other", body.signature)).toBe(false);
    }
  });

  test("a callback_url takes the format of the API the message came through", () => {
    expect(callbackFormat("sendgrid").name).toBe("sendgrid");
    expect(callbackFormat("sparkpost").name).toBe("sparkpost");
    expect(callbackFormat("mailgun").name).toBe("mailgun");
    expect(callbackFormat("smtp").name).toBe("mailgun");
  });

  test("only 406 is final, and only for Mailgun-wire formats", () => {
    expect(formatNames().filter((n) => formatNamed(n).isFinal(406))).toEqual(["mailgun", "native", "mailgun-route", "mailgun-store", "notice"]);
  });

  test("an unknown format name is an error, not a silent default", () => {
    expect(() => formatNamed("nope")).toThrow(/unknown webhook format/);
  });
});
