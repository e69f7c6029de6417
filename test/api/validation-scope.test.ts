// Domain isolation of validation answers: whether ANOTHER domain has bounced an address is not
// visible to a domain key, on any surface; the domain's own bounces and the account key's view are.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
let otherKey: string;
beforeAll(async () => {
  t = await makeTestApp({ dns: { "dest.test": { mx: [{ exchange: "mx.dest.test", priority: 10 }] } } });
  await t.app.domains.add("second.test");
  await t.app.domains.verify("second.test", true);
  otherKey = (await t.app.access.createKey({ kind: "domain", domain: "second.test" })).key;
  await t.app.suppressions.add("second.test", "bounces", [{ address: "gone@dest.test", reason: "550 no such user" }]);
});
afterAll(async () => { await t.close(); });

const native = async (key: string, domain: string, address: string) =>
  (await (await t.app.http(new Request(`http://localhost/${domain}/validate?address=${address}`, { headers: { "ov-token": key } }))).json()) as Record<string, unknown>;
const sparkpost = async (key: string, address: string) =>
  ((await (await t.app.http(new Request(`http://localhost/api/v1/recipient-validation/single/${address}`, { headers: { authorization: key } }))).json()) as { results: Record<string, unknown> }).results;
const sendgrid = async (key: string, email: string) =>
  ((await (await t.app.http(new Request("http://localhost/v3/validations/email", { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ email }) }))).json()) as { result: Record<string, unknown> }).result;

test("another domain's bounce does not show: the answer equals that of an address nobody bounced", async () => {
  const strip = (r: Record<string, unknown>) => JSON.stringify({ ...r, email: undefined, user: undefined, timeLogged: undefined, local: undefined });
  expect(strip(await native(t.domainKey, "example.com", "gone@dest.test"))).toBe(strip(await native(t.domainKey, "example.com", "fresh@dest.test")));
  expect(strip(await sparkpost(t.domainKey, "gone@dest.test"))).toBe(strip(await sparkpost(t.domainKey, "fresh@dest.test")));
  const sg = await sendgrid(t.domainKey, "gone@dest.test");
  expect(sg.verdict).toBe((await sendgrid(t.domainKey, "fresh@dest.test")).verdict);
  expect(JSON.stringify(sg)).not.toContain("\"has_known_bounces\":true");
});

test("the domain that bounced it, and the account key, do see it", async () => {
  const own = await native(otherKey, "second.test", "gone@dest.test");
  const fresh = await native(otherKey, "second.test", "fresh@dest.test");
  expect(own.result).not.toBe(fresh.result);
  expect((await sparkpost(t.accountKey, "gone@dest.test")).valid).toBe(false);
  expect((await sparkpost(t.domainKey, "gone@dest.test")).valid).toBe(true);
});
