// Tenant scoping of Mailgun's account-level data through the unchanged mailgun.js (setSubaccount,
// docs/tenants.md): mailing lists and routes made on behalf of a subaccount are its own, invisible
// to the primary and to another subaccount; a send to a list address expands only the acting
// tenant's list; received mail runs only the routes of its domain's tenant.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import nodemailer from "nodemailer";
import { eventually, failure, startHarness, type MailgunHarness } from "./helpers.ts";

setDefaultTimeout(60_000);
let h: MailgunHarness;
const posts: string[] = [];
const target = Bun.serve({ hostname: "127.0.0.1", port: 0, async fetch(req) { await req.arrayBuffer(); posts.push(new URL(req.url).pathname); return new Response("ok"); } });
beforeAll(async () => {
  h = await startHarness({ toml: "[webhooks]\nallow_private = true\n" });
  await h.mg.subaccounts.create("acme");
  await h.mg.subaccounts.create("beta");
  await h.t.app.domains.add("acme.test", { tenant: 1 });
  await h.t.app.domains.verify("acme.test", true);
});
afterAll(async () => { target.stop(true); await h.close(); });

/** Runs `fn` with the account key acting for subaccount `id` ("" for the primary itself). */
async function as<T>(id: string, fn: () => Promise<T>): Promise<T> {
  if (id) h.mg.setSubaccount(id); else h.mg.resetSubaccount();
  try { return await fn(); } finally { h.mg.resetSubaccount(); }
}
const addresses = async (id: string) => as(id, async () => (await h.mg.lists.list()).items.map((l: { address: string }) => l.address));

test("mailing lists: a subaccount's lists are its own; a send expands only the acting tenant's list", async () => {
  await as("1", () => h.mg.lists.create({ address: "news@acme.test", name: "acme news" } as never));
  await as("1", () => h.mg.lists.members.createMember("news@acme.test", { address: "member@dest.test", subscribed: true } as never));
  await h.mg.lists.create({ address: "news@example.com" } as never);
  // Acting for acme, the primary's domain is not one of its own: Mailgun's 400 naming the domain.
  expect((await as("1", () => failure(h.mg.lists.create({ address: "x@example.com" } as never)))).status).toBe(400);
  expect(await addresses("1")).toEqual(["news@acme.test"]);
  expect(await addresses("")).toEqual(["news@example.com"]);
  expect(await addresses("2")).toEqual([]);
  expect((await failure(h.mg.lists.get("news@acme.test"))).status).toBe(404);
  expect((await as("2", () => failure(h.mg.lists.members.listMembers("news@acme.test")))).status).toBe(404);

  // The primary sending to acme's list address: no expansion, the address itself is the recipient.
  await h.mg.messages.create("example.com", { from: "a@example.com", to: ["news@acme.test"], subject: "p", text: "t" });
  await as("1", () => h.mg.messages.create("acme.test", { from: "a@acme.test", to: ["news@acme.test"], subject: "a", text: "t" }));
  await eventually(async () => h.sink.messages.some((m) => m.to.includes("member@dest.test")) && h.sink.messages.some((m) => m.to.includes("news@acme.test")));
  expect(h.sink.messages.filter((m) => m.to.includes("member@dest.test"))).toHaveLength(1);
});

test("domain templates: another tenant's domain is refused, acting for the tenant it is allowed", async () => {
  await as("1", () => h.mg.domains.domainTemplates.create("acme.test", { name: "hello", template: "<p>hi</p>" } as never));
  expect((await as("1", () => h.mg.domains.domainTemplates.list("acme.test"))).items.map((t) => t.name)).toEqual(["hello"]);
  expect((await failure(h.mg.domains.domainTemplates.list("acme.test"))).status).toBe(403);
  expect((await as("2", () => failure(h.mg.domains.domainTemplates.get("acme.test", "hello")))).status).toBe(403);
});

test("routes: a subaccount's routes are its own, and received mail runs only its domain's tenant's routes", async () => {
  const hook = (path: string) => `forward("http://127.0.0.1:${target.port}${path}")`;
  const mine = await as("1", () => h.mg.routes.create({ priority: 0, description: "acme", expression: "catch_all()", action: [hook("/acme")] }));
  const theirs = await h.mg.routes.create({ priority: 0, description: "primary", expression: "catch_all()", action: [hook("/primary")] });
  const ids = async (id: string) => as(id, async () => (await h.mg.routes.list({})).map((r) => r.id));
  expect(await ids("1")).toEqual([mine.id]);
  expect(await ids("")).toEqual([theirs.id]);
  expect(await ids("2")).toEqual([]);
  expect((await failure(h.mg.routes.get(mine.id))).status).toBe(404);
  expect((await as("2", () => failure(h.mg.routes.destroy(mine.id)))).status).toBe(404);

  for (const d of ["example.com", "acme.test"]) await h.t.app.domains.set(d, { inbound: true });
  const [host, port] = [h.smtp.split(":")[0]!, Number(h.smtp.split(":").pop())];
  const smtp = nodemailer.createTransport({ host, port, secure: false, ignoreTLS: true });
  await smtp.sendMail({ from: "z@sender.example", to: "someone@example.com", subject: "to primary", text: "x" });
  await smtp.sendMail({ from: "z@sender.example", to: "someone@acme.test", subject: "to acme", text: "x" });
  await eventually(async () => posts.length >= 2);
  await Bun.sleep(300);
  expect(posts.sort()).toEqual(["/acme", "/primary"]);
});
