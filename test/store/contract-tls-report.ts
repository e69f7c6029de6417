// The store contract for TLS-RPT as a sender (RFC 8460): session counts per UTC day, policy
// domain, policy type, MX host and result, added up across nodes, a week kept.
import { expect, test } from "bun:test";
import type { Store } from "../../src/core/store-port.ts";

const DAY = 20_000;
type Open = () => Store | Promise<Store>;

export function tlsReportContract(open: Open, openPeer?: (a: Store) => Store | Promise<Store>) {
  test("TLS sessions: counts add up per day, domain, type, host and result, across nodes; a week is kept", async () => {
    const a = await open();
    const b = openPeer ? await openPeer(a) : a;
    const ok = { policyDomain: "example.net", policyType: "tlsa" as const, mxHost: "mx.example.net", result: "success" };
    await a.control.addTlsSessions(DAY - 8, [{ ...ok, count: 9 }]);
    await a.control.addTlsSessions(DAY, [{ ...ok, count: 2 }, { ...ok, result: "tlsa-invalid", count: 1 }]);
    await b.control.addTlsSessions(DAY, [{ ...ok, count: 3 }, { policyDomain: "plain.org", policyType: "no-policy-found", mxHost: "mx.plain.org", result: "success", count: 0 }]);
    expect(await b.control.tlsSessions(DAY)).toEqual([{ ...ok, count: 5 }, { ...ok, result: "tlsa-invalid", count: 1 }]);
    expect(await a.control.tlsSessions(DAY - 8)).toEqual([]);
    // A failure's sending and receiving IP (RFC 8460 §4.3) set its count apart; unknown ones are left out.
    const failed = { ...ok, result: "validation-failure", sendingIp: "192.0.2.1" };
    await a.control.addTlsSessions(DAY + 2, [{ ...failed, receivingIp: "198.51.100.7", count: 1 }, { ...failed, receivingIp: "198.51.100.8", count: 2 }]);
    await b.control.addTlsSessions(DAY + 2, [{ ...failed, receivingIp: "198.51.100.7", count: 4 }, { ...ok, result: "validation-failure", count: 1 }]);
    expect(await a.control.tlsSessions(DAY + 2)).toEqual([{ ...ok, result: "validation-failure", count: 1 },
      { ...failed, receivingIp: "198.51.100.7", count: 5 }, { ...failed, receivingIp: "198.51.100.8", count: 2 }]);
    // So do the policy's lines (an MTA-STS policy-string), kept in order.
    const sts = { policyDomain: "example.net", policyType: "sts" as const, mxHost: "mx.example.net", result: "success" };
    const lines = ["version: STSv1", "mode: enforce", "mx: mx.example.net", "mx: *.example.net", "max_age: 86400"];
    await a.control.addTlsSessions(DAY + 3, [{ ...sts, policyString: lines, count: 2 }, { ...sts, policyString: lines.slice(0, 3), count: 1 }]);
    await b.control.addTlsSessions(DAY + 3, [{ ...sts, policyString: lines, count: 1 }]);
    expect(await a.control.tlsSessions(DAY + 3)).toEqual([{ ...sts, policyString: lines.slice(0, 3), count: 1 }, { ...sts, policyString: lines, count: 3 }]); // older than a week before the newest day written
    expect(await a.control.tlsSessions(DAY + 1)).toEqual([]);
    if (b !== a) await b.close();
    await a.close();
  });
}
