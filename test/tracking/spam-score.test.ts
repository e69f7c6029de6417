// Tracking must cost no spam score: the same short and long HTML sent through postern with and
// without tracking (open pixel, click links, honeypot), scored by SpamAssassin offline (-L), may
// differ by at most 0.3. The pixel as an <img> fired HTML_IMAGE_ONLY_* on short HTML and the
// honeypot's transparent colour HTML_FONT_LOW_CONTRAST (3.5 points together on some mail).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";
import { spamScore } from "../helpers/spamassassin.ts";
import type { Principal } from "../../src/core/model.ts";

const SHORT = '<html><body><p>Hello Ann,</p><p>Your order 1234 has shipped. <a href="https://shop.example.org/orders/1234">Track it here</a>.</p><p>Thanks, the Example shop</p></body></html>';
const PARA = "<p>Our spring collection is here, with new colours and fabrics chosen for long walks and city days alike. Every piece is made in small batches and shipped from our own workshop.</p>";
const LONG = `<html><body><h1>Spring news</h1>${PARA.repeat(12)}<p><a href="https://shop.example.org/spring">See the collection</a> or <a href="https://shop.example.org/faq">read the FAQ</a>.</p></body></html>`;
const textOf = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();

let t: TestApp;
let sink: Sink;
let principal: Principal;
beforeAll(async () => {
  sink = await startSink();
  // A real deployment's tracking host: a raw IP and port in links is a spam sign of its own (WEIRD_PORT).
  t = await makeTestApp({ publicUrl: "https://email.example.com", toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
  principal = (await t.app.access.authenticate(t.domainKey)) as Principal;
  await t.app.mta.scheduler.start();
});
afterAll(async () => { await t.close(); await sink.close(); });

async function sendAndScore(html: string, tracked: boolean) {
  const before = sink.messages.length;
  await t.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "shop@example.com", name: "Example Shop" },
    tracking: { opens: tracked, clicks: tracked }, isTransactional: true,
    envelopes: [{ to: [{ email: "ann@dest.test" }], subject: "Your order has shipped", text: textOf(html), html }] });
  const raw = (await sink.waitFor(before + 1, 10_000))[before]!.raw.toString();
  // The body is quoted-printable: soft line breaks and =3D undone for the substring checks.
  return { body: raw.replace(/=\r\n/g, "").replace(/=3D/g, "="), ...(await spamScore(raw)) };
}

describe("SpamAssassin score of tracked mail", () => {
  for (const [name, html] of [["short", SHORT], ["long", LONG]] as const) {
    test(`${name} HTML: tracked scores at most 0.3 above untracked`, async () => {
      const plain = await sendAndScore(html, false);
      const tracked = await sendAndScore(html, true);
      expect(tracked.body).toContain("/t/o/"); // the pixel, the click links and the honeypot are there
      expect(tracked.body).toContain("/t/c/");
      expect(tracked.body).toContain("/hclick");
      expect(plain.body).not.toContain("/t/o/");
      expect({ diff: Math.round((tracked.score - plain.score) * 10) / 10, rules: tracked.rules.filter((r) => !plain.rules.includes(r)) })
        .toEqual({ diff: expect.any(Number), rules: [] });
      expect(tracked.score - plain.score).toBeLessThanOrEqual(0.3);
    }, 60_000);
  }
});
