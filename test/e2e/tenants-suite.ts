// Tenants end to end (contract §14), against a real `postern serve` process whose MTA delivers to a
// real SMTP sink, driven only from outside: the three unchanged official clients (@sendgrid/client's
// setImpersonateSubuser, mailgun.js's setSubaccount, the sparkpost client's X-MSYS-SUBACCOUNT
// header), real SMTP submission (`SMTP_Injection:X-MSYS-SUBACCOUNT=N`) and the CLI. A tenant is
// made on each surface, sends and reads as itself, cannot see or stop another's mail, is refused
// naming another, is suspended and reactivated each vendor's way; the audit log has every act
// (tenants-audit.ts reads it back from this same world). tenants.test.ts runs it on SQLite,
// tenants-postgres.test.ts on PostgreSQL.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { auditApi, delivered, mailgun, refusal, sendgrid, sg, smtpSend, sparkpost, startWorld, type World } from "./tenants-world.ts";
import { startReceiver } from "../helpers/receiver.ts";
import { checkAudit } from "./tenants-audit.ts";

/** The store engine's [storage] lines and how to stop what serves it. */
export interface Storage { toml: string; stop(): Promise<void> }

/** The whole tenant suite against a server on the store `storage` gives. */
export function tenantSuite(engine: string, storage: () => Promise<Storage>) {
describe(engine, () => {
  let w: World;
  let store: Storage | undefined;
  let sgKey = ""; // tenant 1's own account key (made through the native API on its behalf)
  let sgSend = ""; // tenant 1's domain key for sg.test (SendGrid's mail/send takes a domain key)
  let spKey = ""; // tenant 3's own key, given by SparkPost's subaccount create
  let hook: ReturnType<typeof startReceiver>; // tenant 3's SparkPost webhook
  let mgHook: ReturnType<typeof startReceiver>; // tenant 2's Mailgun webhook
  let sgHook: ReturnType<typeof startReceiver>; // tenant 1's SendGrid Event Webhook
  const TODAY = new Date().toISOString().slice(0, 10);
  const SP_GRANTS = ["transmissions/modify", "sending_domains/manage", "suppression_lists/manage", "message_events/view", "webhooks/modify", "smtp/inject"];
  /** Each tenant: its id, its name, the surface that made it, its domain. */
  const T = { sg: { id: 1, name: "sg-co", domain: "sg.test" }, mg: { id: 2, name: "mg-co", domain: "mg.test" }, sp: { id: 3, name: "sp-co", domain: "sp.test" } };

  beforeAll(async () => {
    hook = startReceiver();
    mgHook = startReceiver();
    sgHook = startReceiver();
    store = await storage();
    w = await startWorld("", undefined, store.toml);
  });
  afterAll(async () => { hook?.stop(); mgHook?.stop(); sgHook?.stop(); await w?.close(); await store?.stop(); });

  /** A key made through the native API on behalf of `tenant` (X-Postern-Tenant): that tenant's own. */
  async function makeKey(tenant: string, body: object): Promise<{ key: string; tenant: number }> {
    const res = await fetch(`${w.base}/keys`, { method: "POST", headers: { "ov-token": w.primaryKey, "X-Postern-Tenant": tenant, "content-type": "application/json" },
      body: JSON.stringify(body) });
    expect(res.status).toBe(200);
    return (await res.json()) as { key: string; tenant: number };
  }
  /** The domain of a delivered message's From header. */
  const fromDomain = (m: { raw: Buffer }) => /^From:[^\n]*@([a-z0-9.-]+)/im.exec(m.raw.toString())?.[1];
  const sgMail = (key: string, from: string, to: string) => sg(sendgrid(w, key), "POST", "/v3/mail/send", {
    personalizations: [{ to: [{ email: to }] }], from: { email: from }, subject: `sg to ${to}`, content: [{ type: "text/plain", value: "x" }] });
  const mgMail = (sub: string | undefined, from: string, to: string) =>
    mailgun(w, w.primaryKey, sub).messages.create(from.split("@")[1]!, { from, to: [to], subject: `mg to ${to}`, text: "x" });
  const spMail = (key: string, sub: number | undefined, from: string, to: string) =>
    sparkpost(w, key, sub).transmissions.send({ recipients: [{ address: to }], content: { from, subject: `sp to ${to}`, text: "x" } });
  const spDomains = async (key: string, sub?: number) => ((await sparkpost(w, key, sub).sendingDomains.list()).results as { domain: string }[]).map((d) => d.domain).sort();
  const mgDomains = async (sub?: string) => (await mailgun(w, w.primaryKey, sub).domains.list()).map((d) => d.name).sort();

  describe("one tenant made on each surface", () => {
    test("SendGrid makes a subuser, Mailgun a subaccount, SparkPost a subaccount with its own key", async () => {
      const [status, made] = await sg(sendgrid(w, w.primaryKey), "POST", "/v3/subusers", { username: T.sg.name, email: "ops@sg.test", password: "a-long-password-1", ips: [] });
      expect([status, made.username, made.user_id]).toEqual([200, T.sg.name, T.sg.id]);
      expect((await mailgun(w, w.primaryKey).subaccounts.create(T.mg.name)).subaccount).toMatchObject({ id: String(T.mg.id), name: T.mg.name, status: "open" });
      const sp = await sparkpost(w, w.primaryKey).subaccounts.create({ name: T.sp.name, key_label: "sp key", key_grants: SP_GRANTS });
      expect(sp.results.subaccount_id).toBe(T.sp.id);
      spKey = sp.results.key;
    });

    test("each is listed by the other two vendors' APIs and by `postern tenant list --json`", async () => {
      const [, subusers] = await sg(sendgrid(w, w.primaryKey), "GET", "/v3/subusers");
      expect(subusers.map((s: { id: number; username: string }) => [s.id, s.username])).toEqual([[1, T.sg.name], [2, T.mg.name], [3, T.sp.name]]);
      expect((await mailgun(w, w.primaryKey).subaccounts.list()).subaccounts.map((s) => [s.id, s.name])).toEqual([["1", T.sg.name], ["2", T.mg.name], ["3", T.sp.name]]);
      expect(((await sparkpost(w, w.primaryKey).subaccounts.list()).results as { id: number; name: string }[]).map((s) => [s.id, s.name]))
        .toEqual([[1, T.sg.name], [2, T.mg.name], [3, T.sp.name]]);
      expect(JSON.parse(await w.cli(["tenant", "list", "--json"]))).toEqual({ tenants: [{ id: 0, name: "primary", status: "active" },
        { id: 1, name: T.sg.name, status: "active" }, { id: 2, name: T.mg.name, status: "active" }, { id: 3, name: T.sp.name, status: "active" }] });
    });

    test("domains and keys made on a tenant's behalf are its own (Mailgun header, SparkPost key, native header, CLI --tenant)", async () => {
      await mailgun(w, w.primaryKey, String(T.mg.id)).domains.create({ name: T.mg.domain });
      await sparkpost(w, spKey).sendingDomains.create({ domain: T.sp.domain });
      await w.cli(["domain", "add", T.sg.domain, "--tenant", T.sg.name]);
      await w.cli(["domain", "add", "primary.test"]);
      for (const d of [T.sg.domain, T.mg.domain, T.sp.domain, "primary.test"]) await w.cli(["domain", "verify", d, "--force"]);
      const made = await makeKey(T.sg.name, { kind: "account", label: "sg tenant key" });
      expect(made.tenant).toBe(T.sg.id);
      sgKey = made.key;
      sgSend = (await makeKey(T.sg.name, { kind: "domain", domain: T.sg.domain, label: "sg sender" })).key;
      // Without a header Mailgun shows the primary's only; SparkPost the primary's and every subaccount's.
      expect(await mgDomains()).toEqual(["primary.test"]);
      expect(await spDomains(w.primaryKey)).toEqual(["mg.test", "primary.test", "sg.test", "sp.test"]);
    });
  });

  describe("sending and reading as a tenant", () => {
    test("webhooks made as tenant 3 (SparkPost header), tenant 2 (Mailgun header) and tenant 1 (on-behalf-of) are theirs alone", async () => {
      await sparkpost(w, w.primaryKey, T.sp.id).webhooks.create({ name: "sp hook", target: hook.url, events: ["delivery"] });
      await mailgun(w, w.primaryKey, String(T.mg.id)).webhooks.create(T.mg.domain, "delivered", mgHook.url, false);
      expect(((await sparkpost(w, spKey).webhooks.list()).results as { name: string }[]).map((h) => h.name)).toEqual(["sp hook"]);
      expect(((await sparkpost(w, w.primaryKey, T.mg.id).webhooks.list()).results as unknown[])).toEqual([]);
      expect(((await sparkpost(w, w.primaryKey, 0).webhooks.list()).results as unknown[])).toEqual([]);
      expect(Object.keys((await mailgun(w, w.primaryKey, String(T.mg.id)).webhooks.list(T.mg.domain, {})))).toContain("delivered");
    // SendGrid's Event Webhook as subuser 1 (on-behalf-of): its own settings, unseen by another subuser and the primary.
    const EW = "/v3/user/webhooks/event/settings";
    expect((await sg(sendgrid(w, w.primaryKey, T.sg.name), "PATCH", EW, { enabled: true, url: sgHook.url, delivered: true }))[0]).toBe(200);
    expect((await sg(sendgrid(w, sgKey), "GET", EW))[1]).toMatchObject({ enabled: true, url: sgHook.url });
    expect((await sg(sendgrid(w, w.primaryKey, T.mg.name), "GET", EW))[1]).toMatchObject({ enabled: false, url: "" });
    expect((await sg(sendgrid(w, w.primaryKey), "GET", EW))[1]).toMatchObject({ enabled: false, url: "" });
      expect((await refusal(mailgun(w, w.primaryKey, String(T.sp.id)).webhooks.list(T.mg.domain, {}))).status).toBe(403);
    });

    test("each tenant sends: SendGrid with its key, Mailgun and SparkPost with the header, SMTP_Injection:X-MSYS-SUBACCOUNT=N", async () => {
      // on-behalf-of does not apply to /v3/mail/send (as on SendGrid): a name that is no subuser changes nothing.
      expect((await sg(sendgrid(w, sgSend, "nobody"), "POST", "/v3/mail/send", { personalizations: [{ to: [{ email: "s1@dest.test" }] }],
        from: { email: "a@sg.test" }, subject: "sg", content: [{ type: "text/plain", value: "x" }] }))[0]).toBe(202);
      expect((await mgMail(String(T.mg.id), "a@mg.test", "m1@dest.test")).status).toBe(200);
      expect((await spMail(w.primaryKey, T.sp.id, "a@sp.test", "p1@dest.test")).results.total_accepted_recipients).toBe(1);
      expect(await smtpSend(w, `SMTP_Injection:X-MSYS-SUBACCOUNT=${T.mg.id}`, w.primaryKey, "b@mg.test", "m2@dest.test")).toBe(250);
      for (const [rcpt, domain] of [["s1", "sg.test"], ["m1", "mg.test"], ["p1", "sp.test"], ["m2", "mg.test"]]) {
        expect(fromDomain((await delivered(w, `${rcpt}@dest.test`))[0]!)).toBe(domain);
      }
    });

    test("a tenant sends only for its own domains, on every path", async () => {
      expect((await sgMail(sgSend, "a@mg.test", "no@dest.test"))[0]).toBe(403);
      expect((await refusal(mgMail(String(T.mg.id), "a@sp.test", "no@dest.test"))).status).toBe(403);
      expect(JSON.stringify((await refusal(spMail(w.primaryKey, T.sp.id, "a@sg.test", "no@dest.test"))).text)).toContain("7001");
      expect(await smtpSend(w, `SMTP_Injection:X-MSYS-SUBACCOUNT=${T.sp.id}`, w.primaryKey, "a@mg.test", "no@dest.test")).toBe(550);
    });

    test("reads through each header show that tenant's domains and events only", async () => {
      expect(await mgDomains(String(T.mg.id))).toEqual(["mg.test"]);
      expect(await spDomains(w.primaryKey, T.sp.id)).toEqual(["sp.test"]);
      expect(await spDomains(spKey)).toEqual(["sp.test"]);
      const spEvents = async (sub: number) => ((await sparkpost(w, w.primaryKey, sub).get({ uri: "events/message", qs: { events: "delivery" } })).results as { rcpt_to: string }[]).map((e) => e.rcpt_to).sort();
      const spAll = async (qs: Record<string, string>) => ((await sparkpost(w, w.primaryKey).get({ uri: "events/message", qs: { events: "delivery", ...qs } })).results as { rcpt_to: string }[]).map((e) => e.rcpt_to).sort();
      let all: string[] = []; // the four deliveries so far, once their events are written
      for (let i = 0; i < 100 && all.length < 4; i++) { all = await spAll({}); if (all.length < 4) await Bun.sleep(50); }
      expect(await spEvents(T.sp.id)).toEqual(["p1@dest.test"]);
      expect((await spEvents(T.mg.id))).toEqual(["m1@dest.test", "m2@dest.test"]);
      const mgEvents = (await mailgun(w, w.primaryKey, String(T.mg.id)).events.get(T.mg.domain, { event: "delivered" })).items.map((e) => e.recipient).sort();
      expect(mgEvents).toEqual(["m1@dest.test", "m2@dest.test"]);
      expect((await refusal(mailgun(w, w.primaryKey, String(T.mg.id)).events.get(T.sp.domain, {}))).status).toBe(403);
      expect((await refusal(mailgun(w, w.primaryKey).events.get(T.mg.domain, {}))).status).toBe(403); // no header: the primary's only
      // SparkPost without the header reads every tenant's events; `subaccounts=` names some.
      expect(all).toEqual(["m1@dest.test", "m2@dest.test", "p1@dest.test", "s1@dest.test"]);
      expect(await spAll({ subaccounts: `${T.sp.id},${T.sg.id}` })).toEqual(["p1@dest.test", "s1@dest.test"]);
      // SendGrid's stats as each subuser (on-behalf-of): its own requests only; the primary's without the header.
      const requests = async (subuser: string) => (await sg(sendgrid(w, w.primaryKey, subuser), "GET", `/v3/stats?start_date=${TODAY}`))[1][0].stats[0].metrics.requests;
      expect([await requests(T.sg.name), await requests(T.mg.name), await requests(T.sp.name), await requests("")]).toEqual([1, 2, 1, 0]);
    });

    test("each tenant's webhook gets its own deliveries, never another tenant's", async () => {
      // (SparkPost's create pings the target with an empty test event first: no message_event.)
      const spEvents = () => hook.received.flatMap((r) => (r.json as { msys: { message_event?: { rcpt_to: string } } }[]).flatMap((e) => e.msys.message_event?.rcpt_to ?? []));
      const mgEvents = () => mgHook.received.map((r) => (r.json as { "event-data": { recipient: string } })["event-data"].recipient).sort();
      await hook.waitFor(() => spEvents().includes("p1@dest.test"));
      const sgEvents = () => sgHook.received.flatMap((r) => (r.json as { email: string; event: string }[]).filter((e) => e.event === "delivered").map((e) => e.email));
    await mgHook.waitFor(() => mgEvents().length >= 2);
    await sgHook.waitFor(() => sgEvents().length >= 1);
      await Bun.sleep(300); // any stray event of another tenant would be on its way by now
      expect(spEvents()).toEqual(["p1@dest.test"]);
      expect(mgEvents()).toEqual(["m1@dest.test", "m2@dest.test"]);
    expect(sgEvents()).toEqual(["s1@dest.test"]);
    });
  });

  describe("one tenant's suppressions stop only its own mail", () => {
    const X = "x@dest.test";
    test("suppressed as tenant 1 (on-behalf-of), listed for it only", async () => {
      expect((await sg(sendgrid(w, w.primaryKey, T.sg.name), "POST", "/v3/asm/suppressions/global", { recipient_emails: [X] }))[0]).toBe(201);
      const unsubscribes = async (c: ReturnType<typeof sendgrid>) => (await sg(c, "GET", "/v3/suppression/unsubscribes"))[1].map((s: { email: string }) => s.email);
      expect(await unsubscribes(sendgrid(w, w.primaryKey, T.sg.name))).toEqual([X]);
      expect(await unsubscribes(sendgrid(w, sgKey))).toEqual([X]);
      expect(await unsubscribes(sendgrid(w, w.primaryKey, T.mg.name))).toEqual([]);
      expect(await unsubscribes(sendgrid(w, w.primaryKey))).toEqual([]);
      expect((await mailgun(w, w.primaryKey, String(T.mg.id)).suppressions.list(T.mg.domain, "unsubscribes")).items).toEqual([]);
      expect((await sparkpost(w, w.primaryKey, T.sp.id).suppressionList.list()).results).toEqual([]);
    });

    test("tenant 2's mail to the address is delivered at the sink; tenant 1's is not", async () => {
      await sgMail(sgSend, "a@sg.test", X);
      expect((await mgMail(String(T.mg.id), "a@mg.test", X)).status).toBe(200);
      expect(await smtpSend(w, `SMTP_Injection:X-MSYS-SUBACCOUNT=${T.sp.id}`, w.primaryKey, "a@sp.test", X)).toBe(250);
      await delivered(w, X);
      await Bun.sleep(1_000); // time for tenant 1's message, were it wrongly sent
      expect(w.sink.messages.filter((m) => m.to.includes(X)).map(fromDomain).sort()).toEqual(["mg.test", "sp.test"]);
    });
    test("Mailgun's and SparkPost's suppressions (made with their headers) stop only their own tenant's mail too", async () => {
      await mailgun(w, w.primaryKey, String(T.mg.id)).suppressions.create(T.mg.domain, "bounces", [{ address: "y@dest.test", code: 550, error: "gone" }]);
      await sparkpost(w, w.primaryKey, T.sp.id).suppressionList.upsert([{ recipient: "z@dest.test", type: "non_transactional" }]);
      expect((await mailgun(w, w.primaryKey, String(T.mg.id)).suppressions.list(T.mg.domain, "bounces")).items.map((i) => (i as { address: string }).address)).toEqual(["y@dest.test"]);
      expect(((await sparkpost(w, spKey).suppressionList.list()).results as { recipient: string }[]).map((r) => r.recipient)).toEqual(["z@dest.test"]);
      expect((await sparkpost(w, w.primaryKey, 0).suppressionList.list()).results).toEqual([]);
      await mgMail(String(T.mg.id), "a@mg.test", "y@dest.test");
      await spMail(w.primaryKey, T.sp.id, "a@sp.test", "z@dest.test").catch(() => null); // SparkPost refuses an all-suppressed send
      expect(await smtpSend(w, `SMTP_Injection:X-MSYS-SUBACCOUNT=${T.sp.id}`, w.primaryKey, "a@sp.test", "y@dest.test")).toBe(250);
      expect((await sgMail(sgSend, "a@sg.test", "z@dest.test"))[0]).toBe(202);
      await delivered(w, "y@dest.test");
      await delivered(w, "z@dest.test");
      await Bun.sleep(1_000); // time for the suppressed ones, were they wrongly sent
      expect(w.sink.messages.filter((m) => m.to.includes("y@dest.test")).map(fromDomain)).toEqual(["sp.test"]);
      expect(w.sink.messages.filter((m) => m.to.includes("z@dest.test")).map(fromDomain)).toEqual(["sg.test"]);
    });
  });

  describe("a tenant key naming another tenant", () => {
    test("gets 403 on each surface, 535 on SMTP, and nothing of the other tenant", async () => {
      const [status, body] = await sg(sendgrid(w, sgKey, T.mg.name), "GET", `/v3/stats?start_date=${TODAY}`);
      expect([status, JSON.stringify(body).includes("requests")]).toEqual([403, false]);
      const mg = await refusal(mailgun(w, sgKey, String(T.mg.id)).domains.list());
      expect([mg.status, mg.text.includes("mg.test")]).toEqual([403, false]);
      const sp = await refusal(sparkpost(w, spKey, T.mg.id).sendingDomains.list());
      expect([sp.status, sp.text.includes("mg.test")]).toEqual([403, false]);
      expect((await refusal(sparkpost(w, spKey, 0).sendingDomains.list())).status).toBe(403);
      expect(await smtpSend(w, `SMTP_Injection:X-MSYS-SUBACCOUNT=${T.mg.id}`, spKey, "a@mg.test", "no@dest.test")).toBe(535);
      const native = await fetch(`${w.base}/keys`, { headers: { "ov-token": sgKey, "X-Postern-Tenant": T.sp.name } });
      expect(native.status).toBe(403);
    });
  });

  describe("a suspended tenant", () => {
    const all = [T.sg, T.mg, T.sp];
    const keys = new Map<number, string>();
    test("suspended each vendor's way, it is shown so on every surface", async () => {
      for (const t of all) keys.set(t.id, (await makeKey(String(t.id), { kind: "domain", domain: t.domain, label: "sender" })).key);
      expect((await sg(sendgrid(w, w.primaryKey), "PATCH", `/v3/subusers/${T.sg.name}`, { disabled: true }))[0]).toBe(204);
      expect((await mailgun(w, w.primaryKey).subaccounts.disable(String(T.mg.id))).subaccount.status).toBe("disabled");
      await sparkpost(w, w.primaryKey).subaccounts.update(String(T.sp.id), { status: "suspended" });
      expect(JSON.parse(await w.cli(["tenant", "list", "--json"])).tenants.map((t: { status: string }) => t.status)).toEqual(["active", "suspended", "suspended", "suspended"]);
      expect((await sg(sendgrid(w, w.primaryKey), "GET", "/v3/subusers"))[1].map((s: { disabled: boolean }) => s.disabled)).toEqual([true, true, true]);
    });

    test("its sends are refused on every surface and over SMTP", async () => {
      for (const t of all) {
        const from = `a@${t.domain}`;
        expect((await sgMail(keys.get(t.id)!, from, "no@dest.test"))[0]).toBe(403);
        expect((await refusal(mgMail(String(t.id), from, "no@dest.test"))).status).toBe(403);
        expect((await refusal(spMail(w.primaryKey, t.id, from, "no@dest.test"))).status).toBe(403);
        expect(await smtpSend(w, `SMTP_Injection:X-MSYS-SUBACCOUNT=${t.id}`, w.primaryKey, from, "no@dest.test")).toBe(550);
        expect(await smtpSend(w, "SMTP_Injection", keys.get(t.id)!, from, "no@dest.test")).toBe(550);
      }
    });

    test("its reads still work", async () => {
      expect(await mgDomains(String(T.mg.id))).toEqual(["mg.test"]);
      expect(await spDomains(spKey)).toEqual(["sp.test"]);
      expect((await sg(sendgrid(w, sgKey), "GET", "/v3/suppression/unsubscribes"))[0]).toBe(200);
    });

    test("reactivated each vendor's way, it sends again", async () => {
      expect((await sg(sendgrid(w, w.primaryKey), "PATCH", `/v3/subusers/${T.sg.name}`, { disabled: false }))[0]).toBe(204);
      expect((await mailgun(w, w.primaryKey).subaccounts.enable(String(T.mg.id))).subaccount.status).toBe("open");
      await sparkpost(w, w.primaryKey).subaccounts.update(String(T.sp.id), { status: "active" });
      expect((await sgMail(sgSend, "a@sg.test", "back1@dest.test"))[0]).toBe(202);
      expect((await mgMail(String(T.mg.id), "a@mg.test", "back2@dest.test")).status).toBe(200);
      expect(await smtpSend(w, `SMTP_Injection:X-MSYS-SUBACCOUNT=${T.sp.id}`, w.primaryKey, "a@sp.test", "back3@dest.test")).toBe(250);
      for (const r of ["back1", "back2", "back3"]) await delivered(w, `${r}@dest.test`);
    });
  });

  describe("the audit log", () => {
    test("has every act above, the same through GET /audit and `postern audit --json`", async () => { await checkAudit(w, T); });
    // The audit log's tenant scope (core/permissions.ts auditTenant): a tenant's own key reads its tenant's entries only.
    test("a tenant's own key reads nothing of another tenant in the audit log", async () => {
      const res = await fetch(`${w.base}/audit?limit=1000`, { headers: { "ov-token": sgKey } }); // an account key with every right
      if (res.status === 403) return; // not allowed to read it at all: nothing leaks either
      const items = ((await res.json()) as { items: { tenant: number; target: string }[] }).items;
      expect(items.filter((e) => e.tenant !== T.sg.id)).toEqual([]);
    });
    // (tenaudit) a send made on behalf of a tenant (Mailgun header, SparkPost header, SMTP_Injection:X-MSYS-SUBACCOUNT=N) is an audit entry of that tenant.
    test("sends on behalf of a tenant are in the audit log", async () => {
      const items = await auditApi(w, w.primaryKey);
      const primaryKeyId = items.find((e) => e.action === "tenant.add")!.actor.id;
      const sends = items.filter((e) => /send|mail|message|transmission|smtp/.test(e.action) && e.actor.id === primaryKeyId);
      expect(new Set(sends.map((e) => e.tenant))).toEqual(new Set([T.mg.id, T.sp.id]));
    });
    // (tenaudit) SparkPost's primary webhooks (made without the header) receive every subaccount's events.
    test("a SparkPost primary webhook sees subaccount events", async () => {
      const primaryHook = startReceiver();
      try {
        await sparkpost(w, w.primaryKey).webhooks.create({ name: "primary hook", target: primaryHook.url, events: ["delivery"] });
        expect((await spMail(w.primaryKey, T.sp.id, "a@sp.test", "ph@dest.test")).results.total_accepted_recipients).toBe(1);
        await primaryHook.waitFor((r) => r.some((x) => x.body.includes("ph@dest.test")));
      } finally { primaryHook.stop(); }
    });
  });
});
}
