// ptr and ipv6 judgements: one PTR, equal to the EHLO name, confirmed forward.
import { expect, test } from "bun:test";
import { judgePtr } from "../../../src/doctor/checks/ptr.ts";
import { judgeIpv6 } from "../../../src/doctor/checks/ipv6.ts";

const s = { kind: "egress" as const, name: "192.0.2.1", address: "192.0.2.1", ehlo: "mta.example.com" };
const ok = <T>(records: T[]) => ({ ok: true as const, records });

test("forward-confirmed and equal to the EHLO name (case and a final dot aside) is ok", () => {
  expect(judgePtr({ ptr: ok(["MTA.example.com."]), forward: ok(["192.0.2.1"]) }, s).severity).toBe("ok");
});

test("none, two, another name, no way back: errors; a failed look-up: unknown", () => {
  expect(judgePtr({ ptr: { ok: false, missing: true, cause: "ENOTFOUND" }, forward: null }, s)).toMatchObject({ severity: "error", fix: expect.stringMatching(/reverse DNS/) });
  expect(judgePtr({ ptr: ok(["a.example.com", "b.example.com"]), forward: null }, s).severity).toBe("error");
  expect(judgePtr({ ptr: ok(["other.example.com"]), forward: ok(["192.0.2.1"]) }, s).summary).toMatch(/not its EHLO name/);
  expect(judgePtr({ ptr: ok(["mta.example.com"]), forward: ok(["192.0.2.2"]) }, s).summary).toMatch(/does not resolve back/);
  expect(judgePtr({ ptr: { ok: false, missing: false, cause: "ETIMEOUT" }, forward: null }, s).severity).toBe("unknown");
});

test("ipv6: nothing said of an IPv4 address; an IPv6 one without a good PTR is an error", () => {
  expect(judgeIpv6(null, s)).toEqual([]);
  const v6 = { ...s, name: "2001:db8::1", address: "2001:db8::1" };
  expect((judgeIpv6({ ptr: { ok: false, missing: true, cause: "ENOTFOUND" }, forward: null }, v6) as { severity: string }).severity).toBe("error");
  expect((judgeIpv6({ ptr: ok(["mta.example.com"]), forward: ok(["2001:db8::1"]) }, v6) as { severity: string }).severity).toBe("ok");
});
