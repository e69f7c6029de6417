// SendGrid's suppression lists through the official @sendgrid/client: bounces, spam reports,
// global unsubscribes (read, add, delete), blocks and invalid emails empty without refusals, and the send path
// honouring them (a suppressed recipient is dropped, a removed one delivered again).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eventually, startHarness, type SendgridHarness } from "./setup.ts";

setDefaultTimeout(60_000);
let h: SendgridHarness;
beforeAll(async () => {
  h = await startHarness();
  await h.t.app.suppressions.add("example.com", "bounces", [{ address: "gone@dest.test", reason: "550 5.1.1 no such user", code: "550" }]);
  await h.t.app.suppressions.add("example.com", "complaints", [{ address: "angry@dest.test" }]);
});
afterAll(async () => { await h.close(); });

const get = async (url: string) => (await h.client.request({ method: "GET", url }))[1] as unknown;
const statuses = async (rcpt: string) => (await h.t.app.activity.events("example.com", { recipient: rcpt, limit: 50, ascending: true })).map((e) => e.type);

describe("suppression lists", () => {
  test("bounces and spam reports read back in SendGrid's shapes; blocks and invalid emails are empty without refusals", async () => {
    expect(await get("/v3/suppression/bounces")).toEqual([{ created: expect.any(Number), email: "gone@dest.test", reason: "550 5.1.1 no such user", status: "5.0.0" }]);
    expect(await get("/v3/suppression/bounces/gone@dest.test")).toHaveLength(1);
    expect(await get("/v3/suppression/spam_reports")).toEqual([{ created: expect.any(Number), email: "angry@dest.test", ip: "" }]);
    expect(await get("/v3/suppression/blocks")).toEqual([]);
    expect(await get("/v3/suppression/invalid_emails")).toEqual([]);
  });

  test("a bounced address is dropped at send; deleted, it is delivered again", async () => {
    const [res] = await h.mail.send({ to: "gone@dest.test", from: "alice@example.com", subject: "first", text: "t" });
    expect(res.statusCode).toBe(202);
    expect(await eventually(() => statuses("gone@dest.test"), (s) => s.includes("failed"))).toEqual(["failed"]);
    const [del] = await h.client.request({ method: "DELETE", url: "/v3/suppression/bounces/gone@dest.test" });
    expect(del.statusCode).toBe(204);
    expect(await get("/v3/suppression/bounces")).toEqual([]);
    await h.mail.send({ to: "gone@dest.test", from: "alice@example.com", subject: "second", text: "t" });
    expect(await eventually(() => statuses("gone@dest.test"), (s) => s.includes("delivered"))).toContain("delivered");
  });

  test("global unsubscribes: add, read, honoured at send, delete", async () => {
    const [add, body] = await h.client.request({ method: "POST", url: "/v3/asm/suppressions/global", body: { recipient_emails: ["u1@dest.test", "u2@dest.test"] } });
    expect(add.statusCode).toBe(201);
    expect(body).toEqual({ recipient_emails: ["u1@dest.test", "u2@dest.test"] });
    expect(await get("/v3/asm/suppressions/global/u1@dest.test")).toEqual({ recipient_email: "u1@dest.test" });
    expect((await get("/v3/suppression/unsubscribes") as { email: string }[]).map((x) => x.email).sort()).toEqual(["u1@dest.test", "u2@dest.test"]);
    await h.mail.send({ to: "u1@dest.test", from: "alice@example.com", subject: "news", text: "t" });
    expect(await eventually(() => statuses("u1@dest.test"), (s) => s.length > 0)).toEqual(["failed"]);
    const [del] = await h.client.request({ method: "DELETE", url: "/v3/asm/suppressions/global/u1@dest.test" });
    expect(del.statusCode).toBe(204);
    expect(await get("/v3/asm/suppressions/global/u1@dest.test")).toEqual({});
    const [all] = await h.client.request({ method: "DELETE", url: "/v3/suppression/unsubscribes", body: { delete_all: true } });
    expect(all.statusCode).toBe(204);
    expect(await get("/v3/suppression/unsubscribes")).toEqual([]);
  });

  test("an unknown list is SendGrid's 404; a bad delete body is 400", async () => {
    await expect(h.client.request({ method: "GET", url: "/v3/suppression/nothing" })).rejects.toMatchObject({ code: 404 });
    await expect(h.client.request({ method: "DELETE", url: "/v3/suppression/bounces", body: { emails: "x" } })).rejects.toMatchObject({ code: 400 });
  });
});

// Blocks and invalid emails, filled by what receivers answer: a refusal of the mail (spam,
// reputation) is a block, a bad destination domain an invalid email (and a bounce); read and
// deleted with @sendgrid/client; blocks never stop later mail; stats count them. Its own harness
// (a scripted SMTP sink).
describe("blocks and invalid emails", () => {
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
