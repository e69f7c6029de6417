// The judgements over published records: SPF results, DKIM keys, DMARC policy, bounce MX, tracking host.
import { expect, test } from "bun:test";
import { judgeSpf } from "../../../src/doctor/checks/spf.ts";
import { dkimTags, judgeDkim } from "../../../src/doctor/checks/dkim.ts";
import { judgeDmarc } from "../../../src/doctor/checks/dmarc.ts";
import { judgeBounceMx } from "../../../src/doctor/checks/bounce-mx.ts";
import { judgeTracking } from "../../../src/doctor/checks/tracking.ts";

const d = { kind: "domain" as const, name: "example.com", bounceDomain: "bounces.example.com", trackingHost: "email.example.com" };
const txt = (...records: string[]) => ({ ok: true as const, records: records.map((r) => [r]) });
const missing = { ok: false as const, missing: true as const, cause: "ENOTFOUND" };
const failed = { ok: false as const, missing: false as const, cause: "ESERVFAIL" };

test("spf: one verdict per domain; every address must pass for the From and the bounce name; temperror is unknown", () => {
  const r = (result: string, address = "192.0.2.1") => ({ address, result, comment: "" });
  const v = judgeSpf({ names: [{ name: "example.com", role: "from", results: [r("pass")] }, { name: "bounces.example.com", role: "bounce", results: [r("pass"), r("softfail", "192.0.2.2")] }] }, d);
  expect(v).toMatchObject({ severity: "error", summary: expect.stringMatching(/bounces\.example\.com \(bounce\) from 192\.0\.2\.2: softfail/),
    fix: expect.stringMatching(/publish at bounces\.example\.com/),
    data: { from: { name: "example.com", addresses: { "192.0.2.1": "pass" } }, bounce: { name: "bounces.example.com", addresses: { "192.0.2.2": "softfail" } } } });
  expect(judgeSpf({ names: [{ name: "example.com", role: "from", results: [r("pass")] }, { name: "bounces.example.com", role: "bounce", results: [r("pass")] }] }, d).severity).toBe("ok");
  expect(judgeSpf({ names: [{ name: "example.com", role: "from", results: [r("temperror")] }] }, d).severity).toBe("unknown");
  expect(judgeSpf({ names: [{ name: "example.com", role: "from", results: [r("none")] }] }, d).severity).toBe("error");
  expect(judgeSpf({ names: [{ name: "example.com", role: "from", results: [] }] }, d).severity).toBe("unknown");
});

test("dkim: one verdict per domain over its selectors, p= compared as data; missing, different and unanswered told apart", () => {
  expect(dkimTags("v=DKIM1; k=rsa;\n p=AB CD")).toEqual({ v: "DKIM1", k: "rsa", p: "ABCD" });
  const key = (selector: string, found: Parameters<typeof judgeDkim>[0]["keys"][number]["found"]) => ({ selector, record: "v=DKIM1; k=rsa; p=ABCD", found });
  const ours = { ok: true as const, records: [["v=DKIM1; k=rsa; p=AB", "CD"]] };
  expect(judgeDkim({ keys: [key("s1", ours), key("s1e", ours)] }, d)).toMatchObject({ severity: "ok", data: { selectors: { s1: { state: "ok" }, s1e: { state: "ok" } } } });
  const mixed = judgeDkim({ keys: [key("s1", ours), key("s1e", txt("k=rsa; v=DKIM1; p=AB", "CD"))] }, d); // two records, neither ours
  expect(mixed).toMatchObject({ severity: "error", summary: expect.stringMatching(/s1e\._domainkey\.example\.com: a different key/), data: { selectors: { s1: { state: "ok" }, s1e: { state: "error" } } } });
  expect(judgeDkim({ keys: [key("s1", missing)] }, d)).toMatchObject({ severity: "error", fix: expect.stringMatching(/TXT s1\._domainkey\.example\.com/) });
  expect(judgeDkim({ keys: [key("s1", failed)] }, d).severity).toBe("unknown");
  // A pending key (rotation) not yet published only warns: it does not sign until DNS shows it.
  const pending = judgeDkim({ keys: [key("s1", ours), { ...key("s2", missing), pending: true }] }, d);
  expect(pending).toMatchObject({ severity: "warn", data: { selectors: { s1: { state: "ok" }, s2: { state: "warn" } } }, fix: expect.stringMatching(/TXT s2\._domainkey/) });
  expect(pending.summary).toContain("a pending key");
  expect(judgeDkim({ keys: [] }, d).severity).toBe("error");
});

test("dmarc: reject/quarantine ok, none warn, no policy error, unanswered unknown; an inherited record's sp= applies", () => {
  const rec = (p: string, over: object = {}) => ({ found: true as const, p, record: `v=DMARC1; p=${p}`, recordDomain: "example.com", inherited: false, ...over });
  expect(judgeDmarc(rec("reject"), d).severity).toBe("ok");
  expect(judgeDmarc(rec("quarantine"), d).severity).toBe("ok");
  expect(judgeDmarc(rec("none"), d)).toMatchObject({ severity: "warn", fix: expect.stringMatching(/p=quarantine/) });
  expect(judgeDmarc({ found: false }, d)).toMatchObject({ severity: "error", fix: expect.stringMatching(/_dmarc\.example\.com/) });
  expect(judgeDmarc({ found: null, cause: "ESERVFAIL" }, d).severity).toBe("unknown");
  const sub = { ...d, name: "mail.example.com" };
  expect(judgeDmarc(rec("reject", { inherited: true, sp: "none" }), sub)).toMatchObject({ severity: "warn", summary: expect.stringMatching(/inherited from _dmarc\.example\.com/) });
  expect(judgeDmarc(rec("reject", { inherited: true }), sub).severity).toBe("ok");
});

test("bounce-mx: an MX naming mta.hostname or reaching this server's addresses", () => {
  const base = { mtaHostname: "mta.example.com", server: ["192.0.2.1"] };
  const mx = (host: string) => ({ ok: true as const, records: [{ exchange: host, priority: 10 }] });
  expect(judgeBounceMx({ ...base, mx: mx("MTA.example.com."), hosts: [{ host: "MTA.example.com.", addresses: [] }] }, d).severity).toBe("ok");
  expect(judgeBounceMx({ ...base, mx: mx("in.example.net"), hosts: [{ host: "in.example.net", addresses: ["192.0.2.1"] }] }, d).severity).toBe("ok");
  expect(judgeBounceMx({ ...base, mx: mx("in.example.net"), hosts: [{ host: "in.example.net", addresses: ["198.51.100.1"] }] }, d).severity).toBe("error");
  expect(judgeBounceMx({ ...base, mx: missing, hosts: [] }, d)).toMatchObject({ severity: "error", fix: expect.stringMatching(/MX bounces\.example\.com → mta\.example\.com/) });
  expect(judgeBounceMx({ ...base, mx: failed, hosts: [] }, d).severity).toBe("unknown");
});

test("tracking: resolves here; with https a certificate valid for the host", () => {
  const here = { ok: true as const, records: ["192.0.2.1"] };
  expect(judgeTracking({ addresses: here, server: ["192.0.2.1"], tls: null }, d).severity).toBe("ok");
  expect(judgeTracking({ addresses: { ok: true, records: ["198.51.100.1"] }, server: ["192.0.2.1"], tls: null }, d).severity).toBe("error");
  expect(judgeTracking({ addresses: missing, server: ["192.0.2.1"], tls: null }, d).severity).toBe("error");
  expect(judgeTracking({ addresses: here, server: ["192.0.2.1"], tls: { valid: true, validTo: "x" } }, d).severity).toBe("ok");
  expect(judgeTracking({ addresses: here, server: ["192.0.2.1"], tls: { valid: false, error: "ERR_TLS_CERT_ALTNAME_INVALID" } }, d).severity).toBe("error");
  expect(judgeTracking({ addresses: here, server: ["192.0.2.1"], tls: { valid: null, error: "timeout" } }, d).severity).toBe("unknown");
});
