// The core send service against an in-memory store: suppression scope and the transmission
// records a send leaves behind.
import { describe, expect, test } from "bun:test";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import { createAccessService } from "../../src/core/access.ts";
import { createDomainService } from "../../src/core/domains.ts";
import { createSendService } from "../../src/core/send.ts";
import { createRecorder } from "../../src/core/recorder.ts";
import { createSuppressionService } from "../../src/core/suppressions.ts";
import { createMockResolver } from "../../src/dns.ts";
import { ensureAccount } from "../../src/core/account.ts";
import type { Principal, SendRequest } from "../../src/core/model.ts";

const NOW = 1_800_000_000_000;

async function setupCore() {
  const store = openSqliteStore(":memory:", ["us"]);
  const now = () => NOW;
  const access = createAccessService({ control: store.control, now });
  const domains = createDomainService({ control: store.control, resolver: createMockResolver({}), now, zones: { names: ["us"], default: "us" },
    dns: { mtaHostname: "mta.test", bounceDomain: "", trackingHost: "track.test" } });
  await ensureAccount(store.control, access, now());
  await domains.add("a.test");
  await domains.verify("a.test", true);
  const sender = createSendService({ store, recorder: createRecorder({ store, now }), now, hostname: "mta.test", lifetimeMs: 86_400_000, maxMessageBytes: 10_000_000 });
  const suppressions = createSuppressionService({ store, now });
  const principal: Principal = { accountId: 1, keyId: "k", kind: "account", domain: null, grants: [] };
  return { store, sender, suppressions, principal };
}

const request = (to: string[], extra: Partial<SendRequest> = {}): SendRequest => ({
  domain: "a.test", from: { email: "news@a.test" }, source: "native",
  envelopes: to.map((email) => ({ to: [{ email }], subject: "hi", text: "hello" })), ...extra,
});

describe("suppression scope", () => {
  async function withScopedLists() {
    const core = await setupCore();
    await core.suppressions.add("a.test", "unsubscribes", [
      { address: "tx@x.test", scope: "transactional" },
      { address: "nontx@x.test", scope: "non_transactional" },
      { address: "both@x.test", scope: null },
    ]);
    return core;
  }
  const rejected = async (core: Awaited<ReturnType<typeof setupCore>>, isTransactional: boolean) =>
    (await core.sender.send(core.principal, request(["tx@x.test", "nontx@x.test", "both@x.test", "ok@x.test"], { isTransactional })))
      .rejected.map((r) => r.email).sort();

  test("a transactional entry suppresses only transactional mail", async () => {
    const core = await withScopedLists();
    expect(await rejected(core, true)).toEqual(["both@x.test", "tx@x.test"]);
  });
  test("a non_transactional entry suppresses only non-transactional mail", async () => {
    const core = await withScopedLists();
    expect(await rejected(core, false)).toEqual(["both@x.test", "nontx@x.test"]);
  });
  test("an unscoped entry on another list still applies when a scoped one does not", async () => {
    const core = await setupCore();
    await core.suppressions.add("a.test", "unsubscribes", [{ address: "two@x.test", scope: "transactional" }]);
    await core.suppressions.add("a.test", "bounces", [{ address: "two@x.test" }]);
    const result = await core.sender.send(core.principal, request(["two@x.test"], { isTransactional: false }));
    expect(result.rejected).toEqual([{ email: "two@x.test", reason: "bounces" }]);
  });
});

describe("transmission records", () => {
  test("a send keeps its request-level facts on every message, and envelope tags replace the request's", async () => {
    const core = await setupCore();
    const req = request(["one@x.test", "two@x.test"], { campaignId: "spring", batchId: "b1", asmGroupId: 12, ipPool: "pool", description: "", tags: ["all"] });
    req.envelopes[1]!.tags = ["own"];
    const sent = await core.sender.send(core.principal, req);
    const messages = await core.store.zone("us").listMessagesBySend(sent.sendId);
    expect(messages.map((m) => m.extra)).toEqual([{ campaignId: "spring", batchId: "b1", asmGroupId: 12, ipPool: "pool" },
      { campaignId: "spring", batchId: "b1", asmGroupId: 12, ipPool: "pool" }]);
    expect(messages.map((m) => m.tags)).toEqual([["all"], ["own"]]);
    const events = await core.store.zone("us").searchEvents({ recipient: "two@x.test", limit: 5 });
    expect(events[0]!.tags).toEqual(["own"]);
    expect((await core.store.zone("us").listSends("a.test", { campaignId: "spring", limit: 5 })).map((s) => [s.id, s.messages])).toEqual([[sent.sendId, 2]]);
  });
});

describe("test mode", () => {
  test("a test-mode recipient is accepted and at once delivered (testMode), and nothing is queued", async () => {
    const core = await setupCore();
    const sent = await core.sender.send(core.principal, request(["quiet@x.test"], { isTestMode: true, source: "mailgun" }));
    const events = await core.store.zone("us").searchEvents({ messageId: sent.id, ascending: true, limit: 5 });
    expect(events.map((e) => [e.type, e.code, e.testMode])).toEqual([["accepted", undefined, undefined], ["delivered", undefined, true]]);
    expect((await core.store.zone("us").listRecipients(sent.id)).map((r) => r.status)).toEqual(["test"]);
    expect(await core.store.zone("us").claimDue(NOW + 86_400_000, 10, { owner: "n1", leaseMs: 60_000 })).toEqual([]);
  });
  test("a suppressed recipient in test mode gets only its suppressed failure", async () => {
    const core = await setupCore();
    await core.suppressions.add("a.test", "bounces", [{ address: "gone@x.test" }]);
    const sent = await core.sender.send(core.principal, request(["gone@x.test"], { isTestMode: true }));
    const events = await core.store.zone("us").searchEvents({ messageId: sent.id, limit: 5 });
    expect(events.map((e) => [e.type, e.reason, e.suppressedBy])).toEqual([["failed", "suppressed", "bounces"]]);
  });
});

describe("size limits", () => {
  const attachment = (bytes: number) => ({ filename: "a.bin", contentType: "application/octet-stream", content: new Uint8Array(bytes), disposition: "attachment" as const });

  test("an attachment shared by many envelopes counts once against the request", async () => {
    const { sender, principal } = await setupCore();
    const to = Array.from({ length: 200 }, (_, i) => `r${i}@x.test`);
    const r = await sender.send(principal, request(to, { attachments: [attachment(200_000)] }));
    expect(r.accepted).toBe(200);
  });

  test("a message over the limit is refused as too large", async () => {
    const { sender, principal } = await setupCore();
    await expect(sender.send(principal, request(["a@x.test"], { attachments: [attachment(10_000_001)] }))).rejects.toMatchObject({ code: "too_large" });
  });
});

describe("raw messages", () => {
  const raw = (head: string) => new TextEncoder().encode(`${head}\r\nTo: r@x.test\r\nSubject: s\r\n\r\nbody\r\n`);
  const send = async (head: string) => {
    const { sender, principal } = await setupCore();
    return sender.send(principal, { domain: "a.test", from: { email: "news@a.test" }, source: "smtp",
      envelopes: [{ to: [{ email: "r@x.test" }], subject: "s", raw: raw(head) }] });
  };
  test("need exactly one From, every address of it on the sending domain", async () => {
    await expect(send("From: news@a.test")).resolves.toMatchObject({ accepted: 1 });
    await expect(send("From: news@a.test\r\nFrom: ceo@other.test")).rejects.toMatchObject({ code: "invalid" });
    await expect(send("From: news@a.test, ceo@other.test")).rejects.toThrow(/not one this key may send as/);
    await expect(send("Subject: none")).rejects.toThrow(/exactly one From/);
  });
});

describe("recipients", () => {
  test("a mailbox named twice in one envelope (any case, to and cc) gets one copy", async () => {
    const { sender, principal } = await setupCore();
    const r = await sender.send(principal, { domain: "a.test", from: { email: "news@a.test" }, source: "mailgun",
      envelopes: [{ to: [{ email: "dup@x.test" }, { email: "DUP@x.test" }], cc: [{ email: "dup@x.test" }], subject: "s", text: "t" }] });
    expect(r.accepted).toBe(1);
  });
});

describe("tracking at accept time", () => {
  test("the honeypot link goes with tracking: none when opens and clicks are off", async () => {
    const { sender, principal, store } = await setupCore();
    const off = await sender.send(principal, request(["a@x.test"], { tracking: { opens: false, clicks: false } }));
    const on = await sender.send(principal, request(["b@x.test"], { tracking: { opens: true } }));
    const honeypot = async (id: string) => JSON.parse((await store.zone("us").getMessage(id))!.content!).tracking.honeypot;
    expect(await honeypot(off.id)).toBe(false);
    expect(await honeypot(on.id)).toBe(true);
  });

  test("a suppressed recipient's failure says which list, in neutral words (no vendor code or text)", async () => {
    const { sender, principal, store, suppressions } = await setupCore();
    await suppressions.add("a.test", "unsubscribes", [{ address: "gone@x.test" }]);
    const r = await sender.send(principal, request(["gone@x.test"]));
    const [e] = await store.zone("us").searchEvents({ messageId: r.id, limit: 5 });
    expect(e).toMatchObject({ type: "failed", severity: "permanent", reason: "suppressed", suppressedBy: "unsubscribes" });
    expect([e!.code, e!.description]).toEqual([undefined, undefined]);
  });
});

describe("raw header tricks", () => {
  const send = async (raw: string) => {
    const { sender, principal } = await setupCore();
    return sender.send(principal, { domain: "a.test", from: { email: "news@a.test" }, source: "smtp",
      envelopes: [{ to: [{ email: "r@x.test" }], subject: "s", raw: new TextEncoder().encode(raw) }] });
  };
  test("a first line that is a continuation, a second From far down, a foreign Sender are all refused", async () => {
    await expect(send(" From: ceo@other.test\r\nFrom: news@a.test\r\nSubject: s\r\n\r\nb")).rejects.toMatchObject({ code: "invalid" });
    await expect(send(`From: news@a.test\r\nX-Pad: ${"x".repeat(300_000)}\r\nFrom: ceo@other.test\r\n\r\nb`)).rejects.toThrow(/exactly one From/);
    await expect(send("From: news@a.test\r\nSender: ceo@other.test\r\n\r\nb")).rejects.toThrow(/not one this key may send as/);
    await expect(send("From : news@a.test\r\nSubject: s\r\n\r\nb")).resolves.toMatchObject({ accepted: 1 });
    await expect(send("From: news@a.test\r\nnot a header line\r\n\r\nb")).rejects.toThrow(/malformed header line/);
  });
});

describe("tag-scoped unsubscribes (Mailgun)", () => {
  test("stop only messages carrying one of their tags; * stops every message", async () => {
    const { sender, principal, suppressions } = await setupCore();
    await suppressions.add("a.test", "unsubscribes", [{ address: "news@x.test", code: "newsletter" }, { address: "all@x.test", code: "*" }]);
    expect((await sender.send(principal, request(["news@x.test"], { tags: ["newsletter"] }))).accepted).toBe(0);
    expect((await sender.send(principal, request(["news@x.test"], { tags: ["receipt"] }))).accepted).toBe(1);
    expect((await sender.send(principal, request(["all@x.test"], { tags: ["receipt"] }))).accepted).toBe(0);
  });
});

describe("custom Message-ID and Sender headers", () => {
  const withHeaders = (headers: Record<string, string>) => request(["r@x.test"], {
    envelopes: [{ to: [{ email: "r@x.test" }], subject: "hi", text: "hello", headers }] });

  test("a Message-ID given is the message's own (brackets added), and postern's id stays its own", async () => {
    const core = await setupCore();
    const res = await core.sender.send(core.principal, withHeaders({ "message-id": "abc.1@app.test", Sender: "Bulk <bulk@a.test>" }));
    expect(res.messages[0]!.messageIdHeader).toBe("<abc.1@app.test>");
    expect(res.id).not.toContain("abc");
  });

  test("a Sender off the sending domain and a malformed Message-ID are refused with their fields", async () => {
    const core = await setupCore();
    await expect(core.sender.send(core.principal, withHeaders({ Sender: "ceo@other.test" }))).rejects.toMatchObject({
      issues: [{ field: "envelopes.0.headers.Sender" }] });
    await expect(core.sender.send(core.principal, withHeaders({ "Message-ID": "no at sign" }))).rejects.toMatchObject({
      issues: [{ field: "envelopes.0.headers.Message-ID" }] });
  });
});

describe("tenants", () => {
  test("a suspended or terminated tenant's domain sends nothing; active again, it sends", async () => {
    const { store, sender, principal } = await setupCore();
    const t = await store.control.insertTenant({ name: "acme", status: "active", createdAt: NOW });
    const d = await store.control.insertDomain({ name: "acme.test", zone: "us", wildcard: false, dkimSelector: "s1", keys: [], validation: true, botDetection: true,
      openTracking: false, clickTracking: false, unsubscribeTracking: false, inbound: false, limitMax: 0, limitWindow: "month", tenantId: t.id }, NOW);
    await store.control.updateDomain(d.name, { state: "active" }, NOW);
    const req = request(["r@dest.test"], { domain: "acme.test", from: { email: "news@acme.test" } });
    await store.control.updateTenant(t.id, { status: "suspended" });
    await expect(sender.send(principal, req)).rejects.toThrow(/tenant acme is suspended: it cannot send/);
    await store.control.updateTenant(t.id, { status: "terminated" });
    await expect(sender.send(principal, req)).rejects.toThrow(/terminated/);
    await store.control.updateTenant(t.id, { status: "active" });
    expect((await sender.send(principal, req)).accepted).toBe(1);
  });

  test("acting for a tenant, a key sends for that tenant's domains only; acting for none (CLI), for any", async () => {
    const { store, sender, principal } = await setupCore();
    const t = await store.control.insertTenant({ name: "acme", status: "active", createdAt: NOW });
    await store.control.insertDomain({ name: "acme.test", zone: "us", wildcard: false, dkimSelector: "s1", keys: [], validation: true, botDetection: true,
      openTracking: false, clickTracking: false, unsubscribeTracking: false, inbound: false, limitMax: 0, limitWindow: "month", tenantId: t.id }, NOW);
    await store.control.updateDomain("acme.test", { state: "active" }, NOW);
    const acme = { ...request(["r@x.test"]), domain: "acme.test", from: { email: "a@acme.test" } };
    const primary = request(["r@x.test"]);
    await expect(sender.send({ ...principal, tenant: t.id }, primary)).rejects.toThrow(/domain a.test not found/);
    await expect(sender.send({ ...principal, tenant: 0 }, acme)).rejects.toThrow(/domain acme.test not found/);
    expect((await sender.send({ ...principal, tenant: t.id }, acme)).accepted).toBe(1);
    expect((await sender.send({ ...principal, tenant: 0 }, primary)).accepted).toBe(1);
    // A principal of every tenant (a console user of all tenants) and the CLI act for no one tenant.
    expect((await sender.send({ ...principal, tenant: 0, readAll: true }, acme)).accepted).toBe(1);
    expect((await sender.send(principal, acme)).accepted).toBe(1);
  });
});
