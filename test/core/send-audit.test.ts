// "Who sent as that customer" (contract §14, core/send.ts): every send a primary account key makes
// on behalf of a tenant is one entry in the audit log, whichever way it comes (mailgun.js with
// setSubaccount, the sparkpost client with X-MSYS-SUBACCOUNT, native X-Postern-Tenant, SMTP
// `SMTP_Injection:X-MSYS-SUBACCOUNT=N` through nodemailer), read back through native GET /audit.
// A key sending for its own tenant (the primary's, or a tenant's own key) adds no entry; a refused
// send adds none either.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import Mailgun from "mailgun.js";
import NodeFormData from "form-data";
import SparkPost from "sparkpost";
import nodemailer from "nodemailer";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";

setDefaultTimeout(60_000);
let t: TestApp;
let sink: Sink;
let base = "";
let smtpPort = 0;
let acmeKey = "";
const keyIdOf = (key: string) => key.split(".")[1]!;

interface Entry { actor: { kind: string; id: string }; tenant: number; action: string; target: string; ip: string }
const sends = async (): Promise<Entry[]> => {
  const res = await fetch(`${base}/audit?action=mail.send`, { headers: { "ov-token": t.accountKey } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: Entry[] }).items;
};

beforeAll(async () => {
  sink = await startSink();
  t = await makeTestApp({ toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
  const started = await t.app.start();
  base = `http://${started.http}`;
  smtpPort = Number(started.smtp!.split(":").pop());
  const acme = await t.app.tenants.add("acme");
  await t.app.domains.add("acme.test", { tenant: acme.id });
  await t.app.domains.verify("acme.test", true);
  acmeKey = (await t.app.access.createKey({ kind: "account", tenant: acme.id })).key;
});
afterAll(async () => { await t.close(); await sink.close(); });

test("mailgun.js setSubaccount: one entry for the send, under the tenant, naming the key and the client", async () => {
  const mg = new Mailgun(NodeFormData as never).client({ username: "api", key: t.accountKey, url: base });
  // The primary sending for itself: not on behalf of anyone.
  await mg.messages.create("example.com", { from: "a@example.com", to: ["p@dest.test"], subject: "own", text: "t" });
  expect(await sends()).toEqual([]);
  mg.setSubaccount("1");
  const r = await mg.messages.create("acme.test", { from: "a@acme.test", to: ["m1@dest.test", "m2@dest.test"], subject: "as acme", text: "t" });
  // A send refused (another tenant's domain, acting for acme) is no act: nothing is recorded.
  await expect(mg.messages.create("example.com", { from: "a@example.com", to: ["x@dest.test"], subject: "no", text: "t" })).rejects.toBeDefined();
  mg.resetSubaccount();
  const entries = await sends();
  expect(entries).toHaveLength(1);
  expect(entries[0]).toMatchObject({ actor: { kind: "key", id: keyIdOf(t.accountKey) }, tenant: 1, action: "mail.send", ip: "127.0.0.1" });
  // The target names the send (the message id Mailgun answered starts with it) and its size, not each recipient.
  const sendId = entries[0]!.target.split(" ")[0]!;
  expect(r.id).toContain(sendId);
  expect(entries[0]!.target).toBe(`${sendId} (1 message)`);
});

test("sparkpost client with X-MSYS-SUBACCOUNT and native X-Postern-Tenant: one entry each; a tenant's own key: none", async () => {
  const before = (await sends()).length;
  const sp = new SparkPost(t.accountKey, { origin: base, headers: { "X-MSYS-SUBACCOUNT": "1" } });
  const tx = await sp.transmissions.send({ content: { from: "a@acme.test", subject: "sp", text: "t" },
    recipients: [{ address: "s1@dest.test" }, { address: "s2@dest.test" }, { address: "s3@dest.test" }] });
  const form = new FormData();
  for (const [k, v] of Object.entries({ from: "a@acme.test", to: "n1@dest.test", subject: "native", text: "t" })) form.set(k, v);
  const native = await fetch(`${base}/acme.test/messages`, { method: "POST", body: form, headers: { "ov-token": t.accountKey, "x-postern-tenant": "acme" } });
  expect(native.status).toBe(200);
  // acme's own key, with or without naming its own tenant: acting for itself.
  await new SparkPost(acmeKey, { origin: base }).transmissions.send({ content: { from: "a@acme.test", subject: "own", text: "t" }, recipients: [{ address: "o1@dest.test" }] });
  await new SparkPost(acmeKey, { origin: base, headers: { "X-MSYS-SUBACCOUNT": "1" } }).transmissions.send({ content: { from: "a@acme.test", subject: "own", text: "t" }, recipients: [{ address: "o2@dest.test" }] });
  // The primary key naming the primary: its own tenant too.
  await new SparkPost(t.accountKey, { origin: base, headers: { "X-MSYS-SUBACCOUNT": "0" } }).transmissions.send({ content: { from: "a@example.com", subject: "own", text: "t" }, recipients: [{ address: "o3@dest.test" }] });
  const all = await sends();
  const entries = all.slice(0, all.length - before);
  expect(entries).toHaveLength(2);
  expect(entries.every((e) => e.tenant === 1 && e.actor.id === keyIdOf(t.accountKey))).toBe(true);
  // Newest first: the native send, then the transmission (whose id is the send's, with its three messages).
  expect(entries[1]!.target).toBe(`${tx.results.id} (3 messages)`);
  expect(entries[0]!.target).toMatch(/ \(1 message\)$/);
});

test("SMTP SMTP_Injection:X-MSYS-SUBACCOUNT=1 through nodemailer: one entry per message; plain SMTP_Injection: none", async () => {
  const before = (await sends()).length;
  const submit = (user: string, from: string, to: string) => nodemailer.createTransport({ host: "127.0.0.1", port: smtpPort, secure: false, ignoreTLS: true,
    auth: { user, pass: t.accountKey } }).sendMail({ from, to, subject: "smtp", text: "t" });
  await submit("SMTP_Injection:X-MSYS-SUBACCOUNT=1", "a@acme.test", "smtp1@dest.test");
  await submit("SMTP_Injection", "a@example.com", "smtp2@dest.test");
  const entries = await sends();
  expect(entries.length - before).toBe(1);
  expect(entries[0]).toMatchObject({ actor: { kind: "key", id: keyIdOf(t.accountKey) }, tenant: 1, action: "mail.send", ip: "127.0.0.1" });
});
