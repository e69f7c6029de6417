// SMTP submission with an API key, SparkPost's relay form, through nodemailer over real SMTP to a
// real app whose MTA delivers to a real sink: `SMTP_Injection` acts for the key's own tenant,
// `SMTP_Injection:X-MSYS-SUBACCOUNT=N` for tenant N (a primary account key with the send right
// only); each message sends for its From domain, which must be the acting tenant's. A tenant key
// naming another tenant, a key without the send right, an unknown subaccount and a wrong key get
// 535; a suspended tenant's mail and a tenant past its monthly limit are refused.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import nodemailer from "nodemailer";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";

setDefaultTimeout(30_000);
let t: TestApp;
let sink: Sink;
let port = 0;
let tenantKey = "";
let readOnlyKey = "";
let injectKey = "";

beforeAll(async () => {
  sink = await startSink();
  t = await makeTestApp({ toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
  port = Number((await t.app.start()).smtp!.split(":").pop());
  for (const [name, domain] of [["acme", "acme.test"], ["beta", "beta.test"]] as const) {
    const tenant = await t.app.tenants.add(name);
    await t.app.domains.add(domain, { tenant: tenant.id });
    await t.app.domains.verify(domain, true);
  }
  tenantKey = (await t.app.access.createKey({ kind: "account", tenant: 1 })).key;
  readOnlyKey = (await t.app.access.createKey({ kind: "account", grants: ["metrics/view"] })).key;
  injectKey = (await t.app.access.createKey({ kind: "account", grants: ["smtp/inject"] })).key;
});
afterAll(async () => { await t.close(); await sink.close(); });

type Outcome = { ok: true; response: string } | { ok: false; code: number | undefined; message: string };

/** One message over SMTP AUTH as `user` with `pass`, from `from`; `localAddress` keeps failed logins' throttling apart. */
async function submit(user: string, pass: string, from: string, to: string, localAddress = "127.0.0.1"): Promise<Outcome> {
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true, localAddress, auth: { user, pass } });
  try {
    const info = await transport.sendMail({ from, to, subject: `to ${to}`, text: "hello" });
    return { ok: true, response: info.response };
  } catch (e) {
    const err = e as { responseCode?: number; message: string };
    return { ok: false, code: err.responseCode, message: err.message };
  } finally {
    transport.close();
  }
}

const delivered = async (rcpt: string) => {
  const deadline = Date.now() + 15_000;
  while (!sink.messages.some((m) => m.to.includes(rcpt))) {
    if (Date.now() > deadline) throw new Error(`nothing delivered to ${rcpt}`);
    await Bun.sleep(50);
  }
  return sink.messages.find((m) => m.to.includes(rcpt))!;
};

test("SMTP_Injection sends as the key's own tenant; X-MSYS-SUBACCOUNT=N as tenant N, for N's domains only", async () => {
  expect(await submit("SMTP_Injection", t.accountKey, "a@example.com", "p1@dest.test")).toMatchObject({ ok: true, response: expect.stringMatching(/^250 2\.0\.0 queued as /) });
  await delivered("p1@dest.test");
  expect(await submit("SMTP_Injection:X-MSYS-SUBACCOUNT=1", t.accountKey, "a@acme.test", "s1@dest.test")).toMatchObject({ ok: true });
  expect((await delivered("s1@dest.test")).from).toContain("acme.test");
  // The primary's domain and another tenant's are not tenant 1's: as unknown as none.
  expect(await submit("SMTP_Injection:X-MSYS-SUBACCOUNT=1", t.accountKey, "a@example.com", "x@dest.test")).toMatchObject({ ok: false, code: 550 });
  expect(await submit("SMTP_Injection:X-MSYS-SUBACCOUNT=1", t.accountKey, "a@beta.test", "x@dest.test")).toMatchObject({ ok: false, code: 550 });
  // Without the header the primary key acts for the primary: a tenant's domain is not its.
  expect(await submit("SMTP_Injection", t.accountKey, "a@acme.test", "x@dest.test")).toMatchObject({ ok: false, code: 550 });
  expect(await submit("smtp_injection:x-msys-subaccount=0", t.accountKey, "b@example.com", "p0@dest.test")).toMatchObject({ ok: true });
  // A tenant's own key: its own tenant, with or without naming it.
  expect(await submit("SMTP_Injection", tenantKey, "t@acme.test", "t1@dest.test")).toMatchObject({ ok: true });
  expect(await submit("SMTP_Injection:X-MSYS-SUBACCOUNT=1", tenantKey, "t@acme.test", "t2@dest.test")).toMatchObject({ ok: true });
  expect(await submit("SMTP_Injection", tenantKey, "t@example.com", "x@dest.test")).toMatchObject({ ok: false, code: 550 });
  expect(await submit("SMTP_Injection", injectKey, "i@example.com", "i1@dest.test")).toMatchObject({ ok: true });
  await delivered("t2@dest.test");
  await delivered("i1@dest.test");
});

test("535 for a tenant key naming another tenant, a key without the send right, an unknown subaccount, a wrong key", async () => {
  expect(await submit("SMTP_Injection:X-MSYS-SUBACCOUNT=2", tenantKey, "t@beta.test", "x@dest.test", "127.0.0.11")).toMatchObject({ ok: false, code: 535 });
  expect(await submit("SMTP_Injection:X-MSYS-SUBACCOUNT=0", tenantKey, "t@example.com", "x@dest.test", "127.0.0.12")).toMatchObject({ ok: false, code: 535 });
  expect(await submit("SMTP_Injection", readOnlyKey, "r@example.com", "x@dest.test", "127.0.0.13")).toMatchObject({ ok: false, code: 535 });
  expect(await submit("SMTP_Injection:X-MSYS-SUBACCOUNT=9", t.accountKey, "a@example.com", "x@dest.test", "127.0.0.14")).toMatchObject({ ok: false, code: 535 });
  expect(await submit("SMTP_Injection", `${t.accountKey.slice(0, -4)}zzzz`, "a@example.com", "x@dest.test", "127.0.0.15")).toMatchObject({ ok: false, code: 535 });
  expect(await submit("SMTP_Injection:X-MSYS-SUBACCOUNT=", t.accountKey, "a@example.com", "x@dest.test", "127.0.0.16")).toMatchObject({ ok: false, code: 535 });
});

test("a suspended tenant's mail is refused; a tenant past its monthly limit is refused as the domain limit is", async () => {
  await t.app.tenants.suspend("acme");
  const suspended = await submit("SMTP_Injection:X-MSYS-SUBACCOUNT=1", t.accountKey, "a@acme.test", "x@dest.test");
  expect(suspended).toMatchObject({ ok: false, code: 550, message: expect.stringContaining("suspended") });
  await t.app.tenantQuota.setLimit("beta", 1);
  expect(await submit("SMTP_Injection:X-MSYS-SUBACCOUNT=2", t.accountKey, "b@beta.test", "b1@dest.test")).toMatchObject({ ok: true });
  const over = await submit("SMTP_Injection:X-MSYS-SUBACCOUNT=2", t.accountKey, "b@beta.test", "b2@dest.test");
  expect(over).toMatchObject({ ok: false, code: 550, message: expect.stringContaining("monthly limit of 1 messages reached for tenant beta") });
  // A domain's SMTP credential of that tenant is held to the same month.
  const cred = await t.app.access.setCredential("beta.test", "app");
  expect(await submit(cred.login, cred.password, "c@beta.test", "b3@dest.test")).toMatchObject({ ok: false, code: 550 });
});
