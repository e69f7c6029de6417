// SparkPost's webhooks and subaccounts, through the unchanged sparkpost client and real receivers:
// an account webhook the primary creates without X-MSYS-SUBACCOUNT receives the events of the
// primary and of every subaccount; with `X-MSYS-SUBACCOUNT: 0` the primary's only; with N
// subaccount N's only. Each event carries its `subaccount_id`. A PUT `subaccount_id` 0 / -1 narrows
// or widens the primary's webhook; SendGrid's account webhooks keep the primary's events only.
import { afterAll, beforeAll, expect, test } from "bun:test";
import SparkPost from "sparkpost";
import { failure, startSpEnv, type SpEnv } from "./setup.ts";
import { startReceiver } from "../../helpers/receiver.ts";

let env: SpEnv;
const every = startReceiver();
const primaryOnly = startReceiver();
const acmeOnly = startReceiver();
const ids = { every: "", acme: "" };

const as = (subaccount?: number) => new SparkPost(env.t.accountKey, { origin: env.origin, ...(subaccount === undefined ? {} : { headers: { "X-MSYS-SUBACCOUNT": String(subaccount) } }) });
const hook = (name: string, target: string) => ({ name, target, events: ["delivery"] });

beforeAll(async () => {
  env = await startSpEnv();
  await env.account.subaccounts.create({ name: "acme", setup_api_key: false });
  await as(1).sendingDomains.create({ domain: "acme.test" });
  await env.t.app.domains.verify("acme.test", true);
  ids.every = (await env.account.webhooks.create(hook("every", every.url))).results.id;
  await as(0).webhooks.create(hook("primary", primaryOnly.url));
  ids.acme = (await as(1).webhooks.create(hook("acme", acmeOnly.url))).results.id;
});
afterAll(async () => { every.stop(); primaryOnly.stop(); acmeOnly.stop(); await env.close(); });

/** The delivery events a receiver got: [recipient, subaccount_id]. */
function deliveries(r: ReturnType<typeof startReceiver>): [string, string][] {
  const events = r.received.flatMap((x) => (Array.isArray(x.json) ? x.json : []) as { msys?: { message_event?: { type: string; rcpt_to: string; subaccount_id: string } } }[]);
  return events.map((e) => e.msys?.message_event).filter((e) => e?.type === "delivery").map((e) => [e!.rcpt_to, e!.subaccount_id]);
}
const has = (r: ReturnType<typeof startReceiver>, rcpt: string) => r.waitFor(() => deliveries(r).some(([to]) => to === rcpt), 30_000);

test("without the header: the primary's and every subaccount's events; 0: the primary's; N: subaccount N's, each with subaccount_id", async () => {
  await as().transmissions.send({ content: { from: "a@example.com", subject: "p", text: "t" }, recipients: [{ address: "p1@dest.test" }] });
  await as(1).transmissions.send({ content: { from: "a@acme.test", subject: "s", text: "t" }, recipients: [{ address: "s1@dest.test" }] });
  await has(every, "s1@dest.test");
  await has(every, "p1@dest.test");
  await has(primaryOnly, "p1@dest.test");
  await has(acmeOnly, "s1@dest.test");
  // Give any misrouted batch time to arrive before saying none did.
  await Bun.sleep(1500);
  expect(deliveries(every).sort()).toEqual([["p1@dest.test", "0"], ["s1@dest.test", "1"]]);
  expect(deliveries(primaryOnly)).toEqual([["p1@dest.test", "0"]]);
  expect(deliveries(acmeOnly)).toEqual([["s1@dest.test", "1"]]);
});

test("PUT subaccount_id 0 narrows the primary's webhook to the primary; -1 widens it again; a subaccount's webhook refuses it", async () => {
  await env.account.webhooks.update(ids.every, { subaccount_id: 0 });
  await as(1).transmissions.send({ content: { from: "a@acme.test", subject: "s", text: "t" }, recipients: [{ address: "s2@dest.test" }] });
  await has(acmeOnly, "s2@dest.test");
  await env.account.webhooks.update(ids.every, { subaccount_id: -1 });
  await as(1).transmissions.send({ content: { from: "a@acme.test", subject: "s", text: "t" }, recipients: [{ address: "s3@dest.test" }] });
  await has(every, "s3@dest.test");
  expect(deliveries(every).map(([to]) => to)).not.toContain("s2@dest.test");
  const refused = await failure(as(1).webhooks.update(ids.acme, { subaccount_id: -1 }));
  expect(refused.statusCode).toBe(422);
  // A name change keeps the choice.
  await env.account.webhooks.update(ids.every, { name: "renamed" });
  expect((await env.t.app.webhooks.list(null)).find((w) => w.id === ids.every)?.extra.everyTenant).toBe(true);
});

test("SendGrid's account event webhook sees the primary's events only (SendGrid's rule)", async () => {
  const sg = startReceiver();
  try {
    const res = await env.t.app.http(new Request("http://127.0.0.1/v3/user/webhooks/event/settings", { method: "PATCH",
      headers: { authorization: `Bearer ${env.t.accountKey}`, "content-type": "application/json" },
      body: JSON.stringify({ enabled: true, url: sg.url, delivered: true }) }));
    expect(res.status).toBe(200);
    await as(1).transmissions.send({ content: { from: "a@acme.test", subject: "s", text: "t" }, recipients: [{ address: "s4@dest.test" }] });
    await as().transmissions.send({ content: { from: "a@example.com", subject: "p", text: "t" }, recipients: [{ address: "p4@dest.test" }] });
    const seen = () => sg.received.flatMap((x) => (Array.isArray(x.json) ? x.json : []) as { email?: string; event?: string }[]).filter((e) => e.event === "delivered").map((e) => e.email);
    await sg.waitFor(() => seen().includes("p4@dest.test"), 30_000);
    await has(every, "s4@dest.test");
    await Bun.sleep(1000);
    expect(seen()).not.toContain("s4@dest.test");
  } finally { sg.stop(); }
});
