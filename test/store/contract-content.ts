// The store contract for the remaining reads and writes: a send's attachments, recipients and
// counts; suppression reads across the zone; received mail; stored templates and lists.
import { expect, test } from "bun:test";
import type { Store } from "../../src/core/store-port.ts";

const NOW = 1_800_000_000_000;
/** Node n1's claims, a minute long. */
const L = { owner: "n1", leaseMs: 60_000 };
type Open = () => Store | Promise<Store>;

const message = (id: string, at = NOW, raw: Uint8Array | null = null) => ({ id, sendId: "s1", domain: "a.test", messageIdHeader: `<${id}@x>`, from: "a@a.test",
  subject: "s", content: raw ? null : "{}", raw, tags: ["t"], metadata: { k: "v" }, callbackUrl: "https://cb.test/", source: "native", isTest: true, size: 2, createdAt: at });
const recipient = (id: string, kind: "to" | "cc" | "bcc" = "to") => ({ id, messageId: "m1", email: `${id}@b.test`, rcptDomain: "b.test", kind, status: "queued" as const,
  attempts: 0, nextAttemptAt: NOW, firstAttemptAt: null, expiresAt: NOW + 1e9, lastCode: null, lastResponse: null, mx: null, updatedAt: NOW });

export function contentContract(open: Open) {
  test("a send's attachments, recipients in order, raw MIME and counts per domain since a time", async () => {
    const store = await open();
    const z = store.zone("us");
    expect(store.zoneNames().sort()).toEqual(["eu", "us"]);
    const bytes = new Uint8Array([0, 1, 2, 255]);
    await z.createSend({ messages: [message("m1", NOW), message("m2", NOW + 10, new TextEncoder().encode("Subject: raw\r\n\r\nx"))],
      recipients: [recipient("zz"), recipient("aa", "cc"), recipient("mm", "bcc")],
      attachments: [{ sendId: "s1", idx: 1, filename: "b.bin", contentType: "application/octet-stream", contentId: null, disposition: "attachment", data: bytes },
        { sendId: "s1", idx: 0, filename: "a.png", contentType: "image/png", contentId: "cid1", disposition: "inline", data: bytes }], events: [] });
    expect((await z.getAttachments("s1")).map((a) => [a.idx, a.filename, a.contentId, a.disposition, [...a.data]])).toEqual([
      [0, "a.png", "cid1", "inline", [0, 1, 2, 255]], [1, "b.bin", null, "attachment", [0, 1, 2, 255]]]);
    expect((await z.listRecipients("m1")).map((r) => [r.id, r.kind])).toEqual([["zz", "to"], ["aa", "cc"], ["mm", "bcc"]]);
    expect(await z.getMessage("m1")).toMatchObject({ tags: ["t"], metadata: { k: "v" }, callbackUrl: "https://cb.test/", isTest: true, raw: null });
    expect(new TextDecoder().decode((await z.getMessage("m2"))!.raw!)).toBe("Subject: raw\r\n\r\nx");
    // The head is the message without its body: everything else as getMessage reads it.
    for (const id of ["m1", "m2"]) expect(await z.getMessageHead(id)).toEqual({ ...(await z.getMessage(id))!, content: null, raw: null });
    expect(await z.getMessageHead("nope")).toBeNull();
    expect((await z.getMessageHeads(["m2", "nope", "m1"])).sort((a, b) => a.id.localeCompare(b.id))).toEqual([(await z.getMessageHead("m1"))!, (await z.getMessageHead("m2"))!]);
    expect(await z.getMessageHeads([])).toEqual([]);
    expect(await z.callbacksOf([])).toEqual([]);
    await z.createSend({ messages: [{ ...message("m3", NOW), sendId: "s3", domain: "c.test", callbackUrl: null }], recipients: [], attachments: [], events: [] });
    expect((await z.callbacksOf(["m3", "m2", "nope", "m1"])).sort((a, b) => a.id.localeCompare(b.id)))
      .toEqual([{ id: "m1", callbackUrl: "https://cb.test/" }, { id: "m2", callbackUrl: "https://cb.test/" }]);
    expect(await z.getRecipient("nope")).toBeNull();
    expect(await z.countSends("a.test", NOW + 1)).toBe(1);
    expect(await z.countSends("a.test", NOW)).toBe(2);
    await store.close();
  });

  test("sends accepted at once are each durable when they resolve, events in order, and a bad one fails alone", async () => {
    const store = await open();
    const z = store.zone("us");
    const send = (n: number, id = `m${n}`) => ({ messages: [{ ...message(id), sendId: `s${n}` }], recipients: [{ ...recipient(`r${n}`), messageId: id }],
      attachments: [], events: [{ id: `e${n}`, type: "accepted" as const, messageId: id, recipient: `r${n}@b.test`, domain: "a.test", timestamp: NOW + n, tags: [], metadata: {} }] });
    // s3 reuses m1's id: it must fail, and only it.
    const results = await Promise.allSettled([send(1), send(2), send(3, "m1"), send(4)].map((s) => z.createSend(s)));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect((await z.listRecipients("m1")).map((r) => r.id)).toEqual(["r1"]);
    expect((await z.eventsAfter(0, 10)).map((e) => e.event.id)).toEqual(["e1", "e2", "e4"]);
    expect((await z.listSends(undefined, { limit: 10 })).map((s) => s.id).sort()).toEqual(["s1", "s2", "s4"]);
    await store.close();
  });

  test("suppression reads: one entry, any domain of the zone, and a whole list deleted", async () => {
    const store = await open();
    const z = store.zone("us");
    const s = (domain: string, type: "bounces" | "complaints", address: string) => ({ domain, type, address, reason: "r", code: "550", scope: "transactional", createdAt: NOW });
    await z.addSuppressions([s("a.test", "bounces", "x@y.test"), s("b.test", "complaints", "q@y.test"), s("a.test", "bounces", "z@y.test")]);
    expect(await z.getSuppression("a.test", "bounces", "X@Y.test")).toEqual(s("a.test", "bounces", "x@y.test"));
    expect(await z.isListedAnywhere("Q@y.test", "complaints")).toBe(true);
    expect(await z.isListedAnywhere("q@y.test", "bounces")).toBe(false);
    expect(await store.zone("eu").isListedAnywhere("q@y.test", "complaints")).toBe(false);
    expect(await z.deleteAllSuppressions("a.test", "bounces")).toBe(2);
    expect(await z.getSuppression("a.test", "bounces", "x@y.test")).toBeNull();
    await store.close();
  });

  test("received mail is stored with the posts it owes, read by id and storage key, and purged when expired", async () => {
    const store = await open();
    const z = store.zone("us");
    const envelope = { id: "in1", domain: "a.test", mailFrom: "s@x.test", rcptTo: ["r@a.test"], remoteIp: "127.0.0.1", heloName: "x",
      receivedAt: NOW, auth: { spf: "pass", dkim: [], dmarc: "none" } };
    const trace = new TextEncoder().encode("Received: by test\r\n");
    await z.appendInboundBody("body1", 0, new TextEncoder().encode("Subject: hi\r\n\r\nbody"), NOW);
    await z.storeInbound({ envelope, trace, bodyId: "body1", storageKey: "key1", expiresAt: NOW + 1000 },
      [{ id: "post1", format: "mailgun-route", url: "https://hook.test/", recipient: "r@a.test", ruleId: "r1", options: {} }], NOW);
    const raw = new TextEncoder().encode("Received: by test\r\nSubject: hi\r\n\r\nbody");
    expect(await z.getInbound("in1")).toEqual({ envelope, raw, storageKey: "key1", expiresAt: NOW + 1000 });
    expect((await z.getInboundByKey("key1"))?.envelope.id).toBe("in1");
    expect((await z.claimWebhooks(NOW, 10, L)).map((i) => [i.id, i.format, JSON.parse(i.payload)[0].inboundId])).toEqual([["post1", "mailgun-route", "in1"]]);
    expect(await z.purgeInbound(NOW + 999)).toBe(0);
    expect(await z.purgeInbound(NOW + 1000)).toBe(1);
    expect(await z.getInbound("in1")).toBeNull();
    await store.close();
  });

  test("templates: unique per scope, versions with one active, updated and deleted", async () => {
    const store = await open();
    const t = store.templates;
    const base = { id: "welcome", domainId: null, tenantId: 0, name: "Welcome", description: "", generation: "dynamic" as const, extra: {}, createdAt: NOW, updatedAt: NOW };
    const tpl = (await t.insertTemplate(base))!;
    expect(await t.insertTemplate(base)).toBeNull();
    const v = (id: string, active: boolean, at: number) => ({ id, name: id, subject: "Hi", html: "<p>x</p>", active, extra: { e: 1 }, createdAt: at, updatedAt: at });
    await t.putVersion(tpl.pk, v("v1", true, NOW + 1));
    await t.putVersion(tpl.pk, v("v2", true, NOW + 2));
    expect((await t.getTemplate(null, "welcome"))!.versions.map((x) => [x.id, x.active, x.text])).toEqual([["v1", false, undefined], ["v2", true, undefined]]);
    expect(await t.activateVersion(tpl.pk, "v1", NOW + 3)).toBe(true);
    expect(await t.activateVersion(tpl.pk, "v9", NOW + 3)).toBe(false);
    expect((await t.getTemplate(null, "welcome"))!.versions.filter((x) => x.active).map((x) => x.id)).toEqual(["v1"]);
    await t.updateTemplate(tpl.pk, { description: "first mail" }, NOW + 4);
    expect(await t.getTemplate(null, "welcome")).toMatchObject({ name: "Welcome", description: "first mail", updatedAt: NOW + 4 });
    expect(await t.deleteVersion(tpl.pk, "v2")).toBe(true);
    expect((await t.listTemplates(null)).map((x) => [x.id, x.versions.length])).toEqual([["welcome", 1]]);
    expect(await t.listTemplates(42)).toEqual([]);
    expect(await t.deleteTemplate(tpl.pk)).toBe(true);
    expect(await t.getTemplate(null, "welcome")).toBeNull();
    await store.close();
  });

  test("lists: unique per kind and scope, members in insertion order, upserted, replaced, paged and deleted", async () => {
    const store = await open();
    const l = store.lists;
    const base = { kind: "address-list" as const, id: "news@a.test", domainId: null, tenantId: 0, name: "News", description: "", extra: {}, createdAt: NOW, updatedAt: NOW };
    const list = (await l.insertList(base))!;
    expect(list.memberCount).toBe(0);
    expect(await l.insertList(base)).toBeNull();
    await l.insertList({ ...base, id: "other@a.test" });
    const m = (address: string, name = "") => ({ address, name, vars: { a: 1 }, subscribed: true, extra: {} });
    expect(await l.putMembers(list.pk, [m("z@x.test"), m("a@x.test"), m("q@x.test")], false)).toBe(3);
    expect(await l.putMembers(list.pk, [m("a@x.test", "Ann")], false)).toBe(0);
    expect(await l.putMembers(list.pk, [m("a@x.test", "Ann"), m("n@x.test")], true)).toBe(2);
    expect((await l.getMember(list.pk, "a@x.test"))?.name).toBe("Ann");
    expect((await l.listMembers(list.pk, { limit: 10 })).map((x) => x.address)).toEqual(["z@x.test", "a@x.test", "q@x.test", "n@x.test"]);
    expect((await l.listMembers(list.pk, { limit: 2, after: "a@x.test" })).map((x) => x.address)).toEqual(["q@x.test", "n@x.test"]);
    expect((await l.getList("address-list", null, "news@a.test"))?.memberCount).toBe(4);
    expect(await l.deleteMember(list.pk, "q@x.test")).toBe(true);
    await l.replaceMembers(list.pk, [{ ...m("only@x.test"), subscribed: false }]);
    expect((await l.listMembers(list.pk, { limit: 10, subscribed: false })).map((x) => x.address)).toEqual(["only@x.test"]);
    expect(await l.listMembers(list.pk, { limit: 10, subscribed: true })).toEqual([]);
    expect(await l.updateList(list.pk, { id: "other@a.test" }, NOW + 1)).toBe(false);
    expect(await l.updateList(list.pk, { id: "renamed@a.test", description: "d" }, NOW + 1)).toBe(true);
    expect((await l.listLists("address-list")).map((x) => x.id)).toEqual(["renamed@a.test", "other@a.test"]);
    expect(await l.listLists("address-list", [7])).toEqual([]);
    expect(await l.listLists("recipient-list")).toEqual([]);
    expect(await l.deleteList(list.pk)).toBe(true);
    expect(await l.getList("address-list", null, "renamed@a.test")).toBeNull();
    await store.close();
  });
}
