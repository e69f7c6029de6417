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

test("spf: every address must pass; temperror is unknown; anything else an error naming the address", () => {
  const r = (result: string) => ({ address: "192.0.2.1", result, comment: "" });
  const [from, bounce] = judgeSpf({ names: [{ name: "example.com", role: "from", results: [r("pass")] }, { name: "bounces.example.com", role: "bounce", results: [r("pass"), { ...r("softfail"), address: "192.0.2.2" }] }] }, d);
  expect(from).toMatchObject({ subject: "example.com", severity: "ok" });
  expect(bounce).toMatchObject({ subject: "bounces.example.com", severity: "error", summary: expect.stringMatching(/192\.0\.2\.2: softfail/) });
  expect(judgeSpf({ names: [{ name: "example.com", role: "from", results: [r("temperror")] }] }, d)[0]!.severity).toBe("unknown");
  expect(judgeSpf({ names: [{ name: "example.com", role: "from", results: [r("none")] }] }, d)[0]!.severity).toBe("error");
});

test("dkim: p= compared as data; missing, different and unanswered told apart", () => {
  expect(dkimTags("v=DKIM1; k=rsa;\n p=AB CD")).toEqual({ v: "DKIM1", k: "rsa", p: "ABCD" });
  const key = { selector: "s1", record: "v=DKIM1; k=rsa; p=ABCD" };
  expect(judgeDkim({ keys: [{ ...key, found: txt("k=rsa; v=DKIM1; p=AB", "CD") }] }, d)[0]!.severity).toBe("error"); // two records, neither ours
  expect(judgeDkim({ keys: [{ ...key, found: { ok: true, records: [["v=DKIM1; k=rsa; p=AB", "CD"]] } }] }, d)[0]).toMatchObject({ subject: "s1._domainkey.example.com", severity: "ok" });
  expect(judgeDkim({ keys: [{ ...key, found: missing }] }, d)[0]!.severity).toBe("error");
  expect(judgeDkim({ keys: [{ ...key, found: failed }] }, d)[0]!.severity).toBe("unknown");
});

test("dmarc: reject/quarantine ok, none warn, absent or two records error, unanswered unknown", () => {
  expect(judgeDmarc(txt("v=DMARC1; p=reject"), d).severity).toBe("ok");
  expect(judgeDmarc(txt("v=DMARC1;p=quarantine;pct=50"), d).severity).toBe("ok");
  expect(judgeDmarc(txt("v=DMARC1; p=none; rua=mailto:x@example.com"), d)).toMatchObject({ severity: "warn", fix: expect.stringMatching(/p=quarantine/) });
  expect(judgeDmarc(missing, d).severity).toBe("error");
  expect(judgeDmarc(txt("some other text"), d).severity).toBe("error");
  expect(judgeDmarc(txt("v=DMARC1; p=reject", "v=DMARC1; p=none"), d).severity).toBe("error");
  expect(judgeDmarc(failed, d).severity).toBe("unknown");
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
