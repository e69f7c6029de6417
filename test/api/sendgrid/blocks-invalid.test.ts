// SendGrid's blocks and invalid emails lists, filled by what receivers answer: a refusal of the
// mail (spam, reputation) is a block, a bad destination domain an invalid email (and a bounce);
// read and deleted with @sendgrid/client; blocks never stop later mail; stats count them.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eventually, startHarness, type SendgridHarness } from "./setup.ts";

setDefaultTimeout(60_000);
let h: SendgridHarness;
let blockNext = true;
beforeAll(async () => {
  h = await startHarness({ script: (rcpt) => {
    if (rcpt === "spamtrap@dest.test" && blockNext) return { code: 554, message: "5.7.1 Message rejected as spam" };
    if (rcpt === "someone@nohost.test") return { code: 550, message: "5.1.2 Host unknown" };
    return null;
  } });
});
afterAll(async () => { await h.close(); });

const get = async (url: string) => (await h.client.request({ method: "GET", url }))[1] as { email: string; reason: string; status?: string; created: number }[];
const statuses = async (rcpt: string) => (await h.t.app.activity.events("example.com", { recipient: rcpt, limit: 50, ascending: true })).map((e) => e.type);
const send = (to: string, subject: string) => h.mail.send({ to, from: "alice@example.com", subject, text: "t" });

describe("blocks and invalid emails", () => {
  test("a refused message is a block; a bad domain an invalid email and a bounce", async () => {
    await send("spamtrap@dest.test", "one");
    await send("someone@nohost.test", "two");
    await eventually(() => get("/v3/suppression/blocks"), (l) => l.length === 1);
    expect(await get("/v3/suppression/blocks")).toEqual([{ created: expect.any(Number), email: "spamtrap@dest.test", reason: expect.stringContaining("rejected as spam"), status: "5.7.1" }]);
    expect(await get("/v3/suppression/blocks/spamtrap@dest.test")).toHaveLength(1);
    await eventually(() => get("/v3/suppression/invalid_emails"), (l) => l.length === 1);
    expect(await get("/v3/suppression/invalid_emails")).toEqual([{ created: expect.any(Number), email: "someone@nohost.test", reason: expect.stringContaining("Host unknown") }]);
    expect((await get("/v3/suppression/bounces")).map((b) => b.email)).toEqual(["someone@nohost.test"]);
    expect(await get("/v3/suppression/spam_reports")).toEqual([]);
  });

  test("a block does not stop later mail; stats count blocks and invalid emails", async () => {
    blockNext = false;
    await send("spamtrap@dest.test", "three");
    expect(await eventually(() => statuses("spamtrap@dest.test"), (s) => s.includes("delivered"))).toContain("delivered");
    const day = new Date().toISOString().slice(0, 10);
    const [, stats] = await h.client.request({ method: "GET", url: "/v3/stats", qs: { start_date: day } });
    expect((stats as { stats: { metrics: Record<string, number> }[] }[])[0]!.stats[0]!.metrics).toMatchObject({ blocks: 1, bounces: 1, invalid_emails: 1, delivered: 1 });
  });

  test("deleted one by one and all at once", async () => {
    const [del] = await h.client.request({ method: "DELETE", url: "/v3/suppression/blocks/spamtrap@dest.test" });
    expect(del.statusCode).toBe(204);
    expect(await get("/v3/suppression/blocks")).toEqual([]);
    const [all] = await h.client.request({ method: "DELETE", url: "/v3/suppression/invalid_emails", body: { delete_all: true } });
    expect(all.statusCode).toBe(204);
    expect(await get("/v3/suppression/invalid_emails")).toEqual([]);
    expect((await get("/v3/suppression/bounces")).map((b) => b.email)).toEqual(["someone@nohost.test"]);
  });
});
