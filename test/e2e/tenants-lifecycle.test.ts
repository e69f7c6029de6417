// A tenant's life end to end (contract §14, docs/tenants.md), against a real `postern serve`
// process and a real SMTP sink: made with `postern tenant add` and listed by all three vendors'
// APIs; its monthly limit set through mailgun.js stops its mail on every surface with each
// surface's answer; its mail leaves from its own egress pool; suspended and reactivated from the CLI (every send path refused: API keys,
// SMTP_Injection, the domain's SMTP credential, `postern send`; its console user read-only);
// terminated through SparkPost, after which its own keys and users stop working everywhere while
// the primary still reads its data.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { peerFor } from "../helpers/egress.ts";
import { auditApi, delivered, mailgun, refusal, sendgrid, sg, smtpSend, sparkpost, startWorld, type World } from "./tenants-world.ts";

setDefaultTimeout(30_000);
let w: World;
let id = 0;
let key = ""; // the tenant's own key, made through SparkPost's api-keys with its header
const D = "gamma.test";
const CRED = "a-password-of-enough-length";

/** A console session of gamma's developer (email and password), with its cookie and CSRF token on writes. */
async function consoleUser() {
  const res = await fetch(`${w.base}/ui/api/session`, { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "gamma-dev@team.test", password: CRED }) });
  expect(res.status).toBe(200);
  const { csrf } = (await res.json()) as { csrf: string };
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0]!;
  return {
    call: (method: string, path: string, body?: unknown) => fetch(`${w.base}/ui/api${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body),
      headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json", "x-csrf-token": csrf }) } }),
  };
}

// Two loopback egress sources: the default pool's and a pool for tenants.
const POOLS = `[mta.egress.ip2]\nsource_address = "127.0.0.2"\n[mta.egress.ip4]\nsource_address = "127.0.0.4"\n`
  + `[mta.pools.default]\nsources = ["ip2"]\n[mta.pools.tenants]\nsources = ["ip4"]\n`;
beforeAll(async () => { w = await startWorld(POOLS); });
afterAll(async () => { await w?.close(); });

const spSend = (to: string) => sparkpost(w, key).transmissions.send({ recipients: [{ address: to }], content: { from: `a@${D}`, subject: "s", text: "t" } });
const mgSend = (to: string) => mailgun(w, w.primaryKey, String(id)).messages.create(D, { from: `a@${D}`, to: [to], subject: "s", text: "t" });
const smtp = (to: string, user = `SMTP_Injection:X-MSYS-SUBACCOUNT=${id}`, pass = w.primaryKey) => smtpSend(w, user, pass, `a@${D}`, to);

describe("a tenant made on the CLI", () => {
  test("is listed by SendGrid, Mailgun and SparkPost", async () => {
    id = Number((await w.cli(["tenant", "add", "gamma"])).match(/\d+/)![0]);
    expect(id).toBe(1);
    expect((await sg(sendgrid(w, w.primaryKey), "GET", "/v3/subusers?username=gamma"))[1]).toEqual([{ id, username: "gamma", disabled: false }]);
    expect((await mailgun(w, w.primaryKey).subaccounts.get(String(id))).subaccount).toMatchObject({ id: String(id), name: "gamma", status: "open" });
    expect((await sparkpost(w, w.primaryKey).subaccounts.get(String(id))).results).toMatchObject({ id, name: "gamma", status: "active" });
  });

  test("its domain (domain add --tenant) and a key made with X-MSYS-SUBACCOUNT send as it, from its pool", async () => {
    await w.cli(["domain", "add", D, "--tenant", "gamma"]);
    await w.cli(["domain", "verify", D, "--force"]);
    const made = await sparkpost(w, w.primaryKey, id).post({ uri: "api-keys", json: { label: "gamma", grants: ["transmissions/modify", "sending_domains/manage", "smtp/inject"] } });
    key = made.results.key;
    // Its egress pool, set before its first message (the MTA keeps a tenant's pool 10 s: docs/tenants.md).
    await w.cli(["tenant", "set", "gamma", "--pool", "tenants"]);
    expect(((await sparkpost(w, key).sendingDomains.list()).results as { domain: string }[]).map((d) => d.domain)).toEqual([D]);
    expect((await spSend("g1@dest.test")).results.total_accepted_recipients).toBe(1);
    expect(await smtp("g2@dest.test", "SMTP_Injection", key)).toBe(250);
    await delivered(w, "g1@dest.test");
    // Both left from the tenant's pool's address (the primary's mail from the default pool: below).
    expect([await peerFor(w.sink, "g1@dest.test"), await peerFor(w.sink, "g2@dest.test")]).toEqual(["127.0.0.4", "127.0.0.4"]);
    // The domain's own SMTP credential, and a console user of this tenant only.
    await w.cli(["credential", "add", D, "relay", "--password", CRED]);
    expect(await smtp("g5@dest.test", `relay@${D}`, CRED)).toBe(250);
    await w.cli(["user", "add", "gamma-dev@team.test", "--role", "developer", "--tenant", String(id), "--password-stdin"], `${CRED}\n`);
    // (a developer's keys need explicit grants: never more rights than the user's own)
    expect((await (await consoleUser()).call("POST", "/keys", { kind: "domain", domain: D, label: "by gamma's developer", grants: ["mail.send"] })).status).toBe(200);
  });
});

describe("its monthly limit (mailgun.js setMonthlySendingLimit)", () => {
  test("once used up, its mail is refused on every surface with that surface's answer", async () => {
    const mg = mailgun(w, w.primaryKey);
    expect(await mg.subaccounts.setMonthlySendingLimit(String(id), 3)).toEqual({ success: true });
    expect(await mg.subaccounts.getMonthlySendingLimit(String(id))).toEqual({ limit: 3, current: 3, period: "1m" });
    expect((await refusal(mgSend("no@dest.test"))).status).toBe(402);
    const sp = await refusal(spSend("no@dest.test"));
    expect([sp.status, sp.text.includes("2101")]).toEqual([420, true]);
    expect(await smtp("no@dest.test")).toBe(550);
    // The primary's mail is not the tenant's: it goes on.
    await w.cli(["domain", "add", "primary.test"]);
    await w.cli(["domain", "verify", "primary.test", "--force"]);
    expect(await smtpSend(w, "SMTP_Injection", w.primaryKey, "a@primary.test", "p@dest.test")).toBe(250);
    expect(await peerFor(w.sink, "p@dest.test")).toBe("127.0.0.2");
    await w.cli(["tenant", "set", "gamma", "--monthly-limit", "none"]);
    expect((await mgSend("g3@dest.test")).status).toBe(200);
    await delivered(w, "g3@dest.test");
  });
});

describe("suspended and reactivated on the CLI", () => {
  test("`postern tenant suspend` shows on every vendor's API and stops its mail; `tenant set --status active` restores it", async () => {
    await w.cli(["tenant", "suspend", "gamma"]);
    expect((await sg(sendgrid(w, w.primaryKey), "GET", "/v3/subusers?username=gamma"))[1][0].disabled).toBe(true);
    expect((await mailgun(w, w.primaryKey).subaccounts.get(String(id))).subaccount.status).toBe("disabled");
    expect((await sparkpost(w, w.primaryKey).subaccounts.get(String(id))).results.status).toBe("suspended");
    expect((await refusal(spSend("no@dest.test"))).status).toBe(403);
    expect(await smtp("no@dest.test")).toBe(550);
    expect(((await sparkpost(w, key).sendingDomains.list()).results as unknown[]).length).toBe(1);
    // Every other path too: the domain's SMTP credential, `postern send`, and its console user reads but cannot change.
    expect(await smtp("no@dest.test", `relay@${D}`, CRED)).toBe(550);
    await expect(w.cli(["send", "--from", `a@${D}`, "--to", "no@dest.test", "--subject", "s", "--text", "t"])).rejects.toThrow(/suspended/);
    const user = await consoleUser();
    expect((await user.call("GET", "/keys")).status).toBe(200);
    const refused = await user.call("POST", "/keys", { kind: "domain", domain: D, label: "while suspended", grants: ["mail.send"] });
    expect([refused.status, await refused.text()]).toEqual([403, expect.stringContaining("suspended")]);
    await w.cli(["tenant", "set", "gamma", "--status", "active"]);
    expect((await spSend("g4@dest.test")).results.total_accepted_recipients).toBe(1);
    await delivered(w, "g4@dest.test");
  });
});

describe("terminated through SparkPost", () => {
  test("its own key stops working on every surface; the primary still reads its data; it stays terminated", async () => {
    await sparkpost(w, w.primaryKey).subaccounts.update(String(id), { status: "terminated" });
    expect((await refusal(sparkpost(w, key).sendingDomains.list())).status).toBe(401);
    expect((await sg(sendgrid(w, key), "GET", "/v3/suppression/bounces"))[0]).toBe(401);
    expect((await refusal(mailgun(w, key).domains.list())).status).toBe(401);
    expect(await smtp("no@dest.test", "SMTP_Injection", key)).toBe(535);
    // Its console user cannot sign in any more.
    const signin = await fetch(`${w.base}/ui/api/session`, { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "gamma-dev@team.test", password: CRED }) });
    expect(signin.status).toBe(403);
    expect((await mailgun(w, w.primaryKey).subaccounts.get(String(id))).subaccount.status).toBe("closed");
    expect(((await sparkpost(w, w.primaryKey, id).sendingDomains.list()).results as { domain: string }[]).map((d) => d.domain)).toEqual([D]);
    expect((await refusal(sparkpost(w, w.primaryKey).subaccounts.update(String(id), { status: "active" }))).status).toBeGreaterThanOrEqual(400);
  });

  test("the audit log has the tenant's whole life, each act with its actor", async () => {
    const life = (await auditApi(w, w.primaryKey, "action=tenant")).map((e) => `${e.action} ${e.actor.kind} ${e.tenant}`).reverse();
    expect(life).toEqual([`tenant.add cli ${id}`, `tenant.pool cli ${id}`, `tenant.limit key ${id}`, `tenant.limit cli ${id}`, `tenant.suspend cli ${id}`,
      `tenant.enable cli ${id}`, `tenant.terminate key ${id}`]);
    expect((await auditApi(w, w.primaryKey, "action=key.create")).map((e) => `${e.actor.kind} ${e.tenant}`)).toEqual([`user ${id}`, `key ${id}`]);
  });
});
