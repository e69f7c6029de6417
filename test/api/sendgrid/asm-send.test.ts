// asm.group_id at mail send: a recipient in the group (or globally unsubscribed) is dropped while
// other groups' mail still arrives; the <%asm_…_raw_url%> tags and List-Unsubscribe become links
// that leave the group, all mail, or open the preferences page; events name the group.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eventually, parsedFor, startHarness, type SendgridHarness } from "./setup.ts";
import { startReceiver } from "../../helpers/receiver.ts";

setDefaultTimeout(60_000);
let h: SendgridHarness;
let hook: ReturnType<typeof startReceiver>;
let news = 0;
let offers = 0;
beforeAll(async () => {
  h = await startHarness({ toml: "[webhooks]\nallow_private = true\n" });
  hook = startReceiver();
  await h.client.request({ method: "PATCH", url: "/v3/user/webhooks/event/settings", body: { enabled: true, url: hook.url, group_unsubscribe: true, dropped: true, delivered: true } });
  const create = async (name: string) => ((await h.client.request({ method: "POST", url: "/v3/asm/groups", body: { name } }))[1] as { id: number }).id;
  news = await create("News");
  offers = await create("Offers");
});
afterAll(async () => { hook.stop(); await h.close(); });

const statuses = async (rcpt: string, subject: string) => {
  const events = await h.t.app.activity.events("example.com", { recipient: rcpt, limit: 50, ascending: true });
  const out: string[] = [];
  for (const e of events) if ((await h.t.app.activity.message("example.com", e.messageId))?.message.subject === subject) out.push(e.type);
  return out;
};
const send = (to: string, subject: string, group: number, body = "hello", groupsToDisplay?: number[]) =>
  h.mail.send({ to, from: "news@example.com", subject, text: body, html: `<p>${body}</p>`, asm: { groupId: group, ...(groupsToDisplay ? { groupsToDisplay } : {}) } });
const members = async (group: number) => (await h.client.request({ method: "GET", url: `/v3/asm/groups/${group}/suppressions` }))[1] as string[];

describe("asm.group_id at send", () => {
  test("a group's entry drops only that group's mail; a global unsubscribe drops all", async () => {
    await h.client.request({ method: "POST", url: `/v3/asm/groups/${news}/suppressions`, body: { recipient_emails: ["left@dest.test"] } });
    await send("left@dest.test", "news 1", news);
    await send("left@dest.test", "offer 1", offers);
    await h.mail.send({ to: "left@dest.test", from: "news@example.com", subject: "receipt 1", text: "r" });
    expect(await eventually(() => statuses("left@dest.test", "offer 1"), (s) => s.includes("delivered"))).toContain("delivered");
    expect(await eventually(() => statuses("left@dest.test", "receipt 1"), (s) => s.includes("delivered"))).toContain("delivered");
    expect(await statuses("left@dest.test", "news 1")).toEqual(["failed"]);
    expect(h.sink.messages.filter((m) => m.to.includes("left@dest.test")).length).toBe(2);
    await hook.waitFor((r) => r.some((x) => (x.json as { event: string; asm_group_id?: number }[]).some((e) => e.event === "dropped" && e.asm_group_id === news)));

    await h.client.request({ method: "POST", url: "/v3/asm/suppressions/global", body: { recipient_emails: ["global@dest.test"] } });
    await send("global@dest.test", "offer 2", offers);
    expect(await eventually(() => statuses("global@dest.test", "offer 2"), (s) => s.length > 0)).toEqual(["failed"]);
  });

  test("the tags become links: group, global and preferences; List-Unsubscribe leaves the group", async () => {
    const body = "group:<%asm_group_unsubscribe_raw_url%> global:<%asm_global_unsubscribe_raw_url%> prefs:<%asm_preferences_raw_url%>";
    await send("reader@dest.test", "news 2", news, body, [news, offers]);
    const [mail] = await eventually(() => parsedFor(h.sink, "reader@dest.test"), (m) => m.length === 1);
    const text = mail!.email.text ?? "";
    expect(text).not.toContain("<%");
    expect(mail!.email.html).not.toContain("%asm_");
    const url = (name: string) => new RegExp(`${name}:(http\\S+)`).exec(text)![1]!;
    expect(new Set([url("group"), url("global"), url("prefs")]).size).toBe(3);
    const listUnsubscribe = /^List-Unsubscribe: <([^>]+)>/im.exec(mail!.head)![1]!;

    // The preferences page shows both groups ticked; unticking News leaves News only.
    const page = await (await h.t.app.http(new Request(url("prefs")))).text();
    expect(page).toContain("News");
    expect(page).toContain("Offers");
    expect(page.match(/checked/g)?.length).toBe(2);
    const saved = await h.t.app.http(new Request(url("prefs"), { method: "POST", body: `group=${offers}`, headers: { "content-type": "application/x-www-form-urlencoded" } }));
    expect(saved.status).toBe(200);
    expect(await members(news)).toContain("reader@dest.test");
    expect(await members(offers)).not.toContain("reader@dest.test");
    await hook.waitFor((r) => r.some((x) => (x.json as { event: string; asm_group_id?: number; email: string }[])
      .some((e) => e.event === "group_unsubscribe" && e.asm_group_id === news && e.email === "reader@dest.test")));
    // Ticking it again rejoins the group.
    await h.t.app.http(new Request(url("prefs"), { method: "POST", body: `group=${news}&group=${offers}`, headers: { "content-type": "application/x-www-form-urlencoded" } }));
    expect(await members(news)).not.toContain("reader@dest.test");

    // One-click List-Unsubscribe (RFC 8058) leaves the message's group, not all mail.
    await h.t.app.http(new Request(listUnsubscribe, { method: "POST", body: "List-Unsubscribe=One-Click" }));
    expect(await members(news)).toContain("reader@dest.test");
    const globals = async () => (await h.client.request({ method: "GET", url: "/v3/suppression/unsubscribes" }))[1] as { email: string }[];
    expect((await globals()).map((g) => g.email)).not.toContain("reader@dest.test");
    await send("reader@dest.test", "news 3", news);
    await send("reader@dest.test", "offer 3", offers);
    expect(await eventually(() => statuses("reader@dest.test", "offer 3"), (s) => s.includes("delivered"))).toContain("delivered");
    expect(await statuses("reader@dest.test", "news 3")).toEqual(["failed"]);

    // The global link leaves all mail.
    await h.t.app.http(new Request(url("global"), { method: "POST" }));
    expect((await globals()).map((g) => g.email)).toContain("reader@dest.test");
  });

  test("the group link leaves the group", async () => {
    await send("clicker@dest.test", "news 4", offers, "<%asm_group_unsubscribe_raw_url%>");
    const [mail] = await eventually(() => parsedFor(h.sink, "clicker@dest.test"), (m) => m.length === 1);
    const link = /(http\S+)/.exec(mail!.email.text ?? "")![1]!;
    expect((await h.t.app.http(new Request(link, { method: "POST" }))).status).toBe(200);
    expect(await members(offers)).toEqual(["clicker@dest.test"]);
  });
});
