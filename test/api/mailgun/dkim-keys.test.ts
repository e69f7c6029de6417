// Mailgun's domain keys through the official mailgun.js (domains.domainKeys) on postern's DKIM
// lifecycle: a created key is pending (not signing), activate makes it sign and retires the old
// one, deactivate retires it; listings filter by domain and selector; bad input is Mailgun's 4xx.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { signingKeys } from "../../../src/core/dkim-keys.ts";
import { startHarness, jsonOf, failure, type MailgunHarness } from "./helpers.ts";

setDefaultTimeout(60_000);
let h: MailgunHarness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });

// mailgun.js has domains.domainKeys at run time; its published types leave it off IDomainsClient.
interface KeyItem { signing_domain: string; selector: string; dns_record: { is_active: boolean; name: string; record_type: string; value: string } }
interface DomainKeys {
  create(d: { signingDomain: string; selector: string; bits?: "1024" | "2048"; pem?: string }): Promise<KeyItem & { status: number }>;
  list(domain: string): Promise<{ items: KeyItem[] }>;
  listAll(q: { signingDomain?: string; selector?: string }): Promise<{ items: KeyItem[] }>;
  activate(domain: string, selector: string): Promise<Record<string, unknown>>;
  deactivate(domain: string, selector: string): Promise<Record<string, unknown>>;
}
const keys = () => (h.mg.domains as unknown as { domainKeys: DomainKeys }).domainKeys;
const signing = async () => signingKeys(await h.t.app.store.control.getDkimKeys((await h.t.app.domains.get("example.com"))!.id)).map((k) => k.selector);

test("create → pending, listed; activate signs with it and retires the old RSA key; deactivate retires it", async () => {
  const made = await keys().create({ signingDomain: "example.com", selector: "mg2026" });
  expect(made).toMatchObject({ status: 200, signing_domain: "example.com", selector: "mg2026",
    dns_record: { is_active: false, name: "mg2026._domainkey.example.com", record_type: "TXT" } });
  expect(made.dns_record.value).toMatch(/^v=DKIM1; k=rsa; p=/);
  expect(await signing()).toEqual(["s1", "s1e"]);

  const listed = await keys().list("example.com");
  expect(listed.items.map((k) => [k.selector, k.dns_record.is_active])).toEqual([["s1", true], ["s1e", true], ["mg2026", false]]);
  const all = await keys().listAll({ signingDomain: "example.com", selector: "mg2026" });
  expect(all.items.map((k) => k.selector)).toEqual(["mg2026"]);

  expect(await keys().activate("example.com", "mg2026")).toMatchObject({ status: 200, authority: "example.com", selector: "mg2026", active: true });
  expect(await signing()).toEqual(["s1e", "mg2026"]);
  expect((await h.t.app.dkimKeys.list("example.com")).find((k) => k.selector === "s1")!.state).toBe("retiring");

  expect(await keys().deactivate("example.com", "s1e")).toMatchObject({ status: 200, selector: "s1e", active: false });
  expect(await signing()).toEqual(["mg2026"]);
});

test("a key brought as pem publishes its own public key", async () => {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }) as string;
  const made = await keys().create({ signingDomain: "example.com", selector: "own", pem });
  const raw = Buffer.from(publicKey.export({ type: "spki", format: "der" })).subarray(-32);
  expect(made.dns_record.value).toBe(`v=DKIM1; k=ed25519; p=${raw.toString("base64")}`);
});

test("bad input is Mailgun's 4xx: missing fields, a taken selector (Mailgun's duplicates are 400s), an unknown domain or key, a bad pem or size", async () => {
  expect((await failure(keys().create({ signingDomain: "example.com", selector: "" }))).status).toBe(400);
  expect((await failure(keys().create({ signingDomain: "example.com", selector: "mg2026" }))).status).toBe(400);
  expect((await failure(keys().create({ signingDomain: "nope.test", selector: "x" }))).status).toBe(404);
  expect((await failure(keys().create({ signingDomain: "example.com", selector: "bad_sel" }))).status).toBe(400);
  expect((await failure(keys().create({ signingDomain: "example.com", selector: "x", pem: "junk" }))).status).toBe(400);
  expect((await failure(keys().create({ signingDomain: "example.com", selector: "x", bits: "1024" }))).status).toBe(400);
  expect((await failure(keys().activate("example.com", "missing"))).status).toBe(404);
  const r = await h.call("GET", "/v1/dkim/keys?limit=0");
  expect(r.status).toBe(400);
  expect(await jsonOf(r)).toHaveProperty("message");
  // A domain (sending) key may only send.
  expect((await h.call("GET", "/v1/dkim/keys", { key: h.t.domainKey })).status).toBe(403);
});

test("tenants: a subaccount lists only its own domains' keys and cannot add one to another tenant's domain", async () => {
  await h.mg.subaccounts.create("acme");
  await h.t.app.domains.add("acme.test", { tenant: 1 });
  const acme = h.client((await h.t.app.access.createKey({ kind: "account", tenant: 1 })).key);
  const acmeKeys = (acme.domains as unknown as { domainKeys: DomainKeys }).domainKeys;
  expect(new Set((await acmeKeys.listAll({})).items.map((k) => k.signing_domain))).toEqual(new Set(["acme.test"]));
  expect((await keys().listAll({})).items.some((k) => k.signing_domain === "acme.test")).toBe(false);
  expect((await failure(acmeKeys.create({ signingDomain: "example.com", selector: "evil" }))).status).toBe(403);
  expect((await h.t.app.dkimKeys.list("example.com")).some((k) => k.selector === "evil")).toBe(false);
  expect((await acmeKeys.create({ signingDomain: "acme.test", selector: "own" })).selector).toBe("own");
});
