// SendGrid's cross-group suppression reads (src/api/sendgrid/asm-suppressions.ts) through the
// official @sendgrid/client: every group entry at once, and one address's standing in every group.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { requestWith, startHarness, type ClientRequest, type SendgridHarness } from "./setup.ts";

setDefaultTimeout(60_000);
let h: SendgridHarness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });

const call = (req: ClientRequest, client = h.client) => requestWith(client, req);
const group = async (name: string, client = h.client) =>
  (await call({ method: "POST", url: "/v3/asm/groups", body: { name } }, client)).body as { id: number };
const suppress = (id: number, emails: string[], client = h.client) =>
  call({ method: "POST", url: `/v3/asm/groups/${id}/suppressions`, body: { recipient_emails: emails } }, client);

describe("suppressions across unsubscribe groups", () => {
  test("GET /v3/asm/suppressions lists every group's entries with the group's name", async () => {
    const news = await group("News");
    const offers = await group("Offers");
    await suppress(news.id, ["a@dest.test"]);
    await suppress(offers.id, ["a@dest.test", "b@dest.test"]);
    const all = (await call({ method: "GET", url: "/v3/asm/suppressions" })).body as { email: string; group_id: number; group_name: string; created_at: number }[];
    const seen = all.map((s) => [s.email, s.group_name]).sort();
    expect(seen).toEqual([["a@dest.test", "News"], ["a@dest.test", "Offers"], ["b@dest.test", "Offers"]]);
    expect(all.every((s) => Number.isInteger(s.created_at) && s.created_at > 1_600_000_000 && s.created_at < 1e11)).toBe(true);
  });

  test("GET /v3/asm/suppressions/{email} gives every group and whether the address left it", async () => {
    const one = (await call({ method: "GET", url: "/v3/asm/suppressions/b@dest.test" })).body as { suppressions: { name: string; suppressed: boolean; is_default: boolean }[] };
    expect(one.suppressions.map((s) => [s.name, s.suppressed]).sort()).toEqual([["News", false], ["Offers", true]]);
    const none = (await call({ method: "GET", url: "/v3/asm/suppressions/nobody@dest.test" })).body as { suppressions: { suppressed: boolean }[] };
    expect(none.suppressions.length).toBe(2);
    expect(none.suppressions.every((s) => !s.suppressed)).toBe(true);
  });

  test("a domain key sees only its own domain's groups and entries", async () => {
    await h.t.app.domains.add("other.test");
    const other = h.clientsFor((await h.t.app.access.createKey({ kind: "domain", domain: "other.test" })).key).client;
    const theirs = await group("Theirs", other);
    await suppress(theirs.id, ["c@dest.test"], other);
    expect(((await call({ method: "GET", url: "/v3/asm/suppressions" }, other)).body as { email: string }[]).map((s) => s.email)).toEqual(["c@dest.test"]);
    expect(((await call({ method: "GET", url: "/v3/asm/suppressions" })).body as { email: string }[]).map((s) => s.email)).not.toContain("c@dest.test");
    const mine = (await call({ method: "GET", url: "/v3/asm/suppressions/a@dest.test" }, other)).body as { suppressions: { name: string; suppressed: boolean }[] };
    expect(mine.suppressions).toEqual([expect.objectContaining({ name: "Theirs", suppressed: false })]);
  });
});
