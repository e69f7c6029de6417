// SendGrid unsubscribe groups (ASM) through the official @sendgrid/client: group CRUD, a group's
// suppressions (add, list, search, delete), the cross-group reads, and an account key's view.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { requestWith, startHarness, type ClientRequest, type SendgridHarness } from "./setup.ts";

setDefaultTimeout(60_000);
let h: SendgridHarness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });

const call = (req: ClientRequest, client = h.client) => requestWith(client, req);

describe("unsubscribe groups", () => {
  test("create, read, update, list with counts, one default, delete", async () => {
    const news = await call({ method: "POST", url: "/v3/asm/groups", body: { name: "Newsletters", description: "Weekly news", is_default: true } });
    expect(news).toEqual({ status: 201, body: { id: expect.any(Number), name: "Newsletters", description: "Weekly news", is_default: true } as never });
    const id = (news.body as { id: number }).id;
    const offers = (await call({ method: "POST", url: "/v3/asm/groups", body: { name: "Offers", description: "Deals", is_default: true } })).body as { id: number };
    expect((await call({ method: "GET", url: `/v3/asm/groups/${id}` })).body).toEqual({ id, name: "Newsletters", description: "Weekly news",
      is_default: false, last_email_sent_at: null, unsubscribes: 0 } as never);
    const patched = await call({ method: "PATCH", url: `/v3/asm/groups/${id}`, body: { description: "Monthly news" } });
    expect(patched).toEqual({ status: 201, body: { id, name: "Newsletters", description: "Monthly news", is_default: false } as never });
    const list = (await call({ method: "GET", url: "/v3/asm/groups" })).body as { id: number; is_default: boolean }[];
    expect(list.map((g) => [g.id, g.is_default])).toEqual([[id, false], [offers.id, true]]);
    expect(((await call({ method: "GET", url: "/v3/asm/groups", qs: { id: offers.id } })).body as unknown[]).length).toBe(1);
    expect((await call({ method: "DELETE", url: `/v3/asm/groups/${offers.id}` })).status).toBe(204);
    await expect(call({ method: "GET", url: `/v3/asm/groups/${offers.id}` })).rejects.toMatchObject({ code: 404, response: { body: { errors: [{ message: expect.any(String) }] } } });
  });

  test("bad input is SendGrid's 400 with the field", async () => {
    await expect(call({ method: "POST", url: "/v3/asm/groups", body: { description: "no name" } })).rejects.toMatchObject({ code: 400, response: { body: { errors: [{ field: "name" }] } } });
    await expect(call({ method: "POST", url: "/v3/asm/groups", body: { name: "x".repeat(31) } })).rejects.toMatchObject({ code: 400 });
    await call({ method: "POST", url: "/v3/asm/groups", body: { name: "Dupe" } });
    await expect(call({ method: "POST", url: "/v3/asm/groups", body: { name: "dupe" } })).rejects.toMatchObject({ code: 400, response: { body: { errors: [{ field: "name" }] } } });
    await expect(call({ method: "POST", url: "/v3/asm/groups/abc/suppressions", body: { recipient_emails: ["a@b.test"] } })).rejects.toMatchObject({ code: 404 });
  });

  test("a group's suppressions: add, list, search, delete; the cross-group reads", async () => {
    const g = (await call({ method: "POST", url: "/v3/asm/groups", body: { name: "Product tips" } })).body as { id: number; name: string };
    const add = await call({ method: "POST", url: `/v3/asm/groups/${g.id}/suppressions`, body: { recipient_emails: ["Tip1@dest.test", "tip2@dest.test"] } });
    expect(add).toEqual({ status: 201, body: { recipient_emails: ["Tip1@dest.test", "tip2@dest.test"] } as never });
    expect((await call({ method: "GET", url: `/v3/asm/groups/${g.id}/suppressions` })).body).toEqual(["tip1@dest.test", "tip2@dest.test"] as never);
    const search = await call({ method: "POST", url: `/v3/asm/groups/${g.id}/suppressions/search`, body: { recipient_emails: ["tip2@dest.test", "other@dest.test"] } });
    expect(search.body).toEqual(["tip2@dest.test"] as never);
    expect((await call({ method: "GET", url: `/v3/asm/groups/${g.id}` })).body).toMatchObject({ unsubscribes: 2 });
    const all = (await call({ method: "GET", url: "/v3/asm/suppressions" })).body as { email: string; group_id: number; group_name: string }[];
    expect(all.filter((s) => s.group_id === g.id)).toEqual([
      { email: "tip1@dest.test", group_id: g.id, group_name: "Product tips", created_at: expect.any(Number) },
      { email: "tip2@dest.test", group_id: g.id, group_name: "Product tips", created_at: expect.any(Number) }] as never);
    const one = (await call({ method: "GET", url: "/v3/asm/suppressions/tip1@dest.test" })).body as { suppressions: { id: number; suppressed: boolean }[] };
    expect(one.suppressions.find((s) => s.id === g.id)).toMatchObject({ name: "Product tips", suppressed: true, is_default: false });
    expect(one.suppressions.filter((s) => s.id !== g.id).every((s) => !s.suppressed)).toBe(true);
    expect((await call({ method: "DELETE", url: `/v3/asm/groups/${g.id}/suppressions/tip1@dest.test` })).status).toBe(204);
    expect((await call({ method: "GET", url: `/v3/asm/groups/${g.id}/suppressions` })).body).toEqual(["tip2@dest.test"] as never);
    await expect(call({ method: "POST", url: `/v3/asm/groups/${g.id}/suppressions`, body: { recipient_emails: ["not an address"] } })).rejects.toMatchObject({ code: 400 });
    // The console lists every row of a domain, group entries too, and removes them by their type.
    const rows = await h.t.app.suppressions.list("example.com", { limit: 100 });
    expect(rows.filter((r) => r.type === `group:${g.id}`).map((r) => r.address)).toEqual(["tip2@dest.test"]);
    expect(await h.t.app.suppressions.remove("example.com", `group:${g.id}`, "tip2@dest.test")).toBe(1);
    expect((await call({ method: "GET", url: `/v3/asm/groups/${g.id}/suppressions` })).body).toEqual([] as never);
  });

  test("a domain key does not see another domain's groups; the account key sees them all", async () => {
    await h.t.app.domains.add("other.test");
    const otherKey = (await h.t.app.access.createKey({ kind: "domain", domain: "other.test" })).key;
    const other = h.clientsFor(otherKey).client;
    const mine = (await call({ method: "POST", url: "/v3/asm/groups", body: { name: "Private" } })).body as { id: number };
    await expect(call({ method: "GET", url: `/v3/asm/groups/${mine.id}` }, other)).rejects.toMatchObject({ code: 404 });
    expect(((await call({ method: "GET", url: "/v3/asm/groups" }, other)).body as unknown[]).length).toBe(0);
    const account = h.clientsFor(h.t.accountKey).client;
    expect(((await call({ method: "GET", url: "/v3/asm/groups" }, account)).body as { id: number }[]).map((g) => g.id)).toContain(mine.id);
  });
});
