// The store contract for receivers' reports: one per reporter and report id, listed per domain
// and kind by period (or arrival), and seen by every node of the zone.
import { expect, test } from "bun:test";
import type { DmarcReport, Store, StoredReceiverReport } from "../../src/core/store-port.ts";

const DAY = 86_400_000;
const T = 1_800_000_000_000;
type Open = () => Store | Promise<Store>;

const dmarc = (org: string, id: string, end: number, domain = "a.test"): StoredReceiverReport => ({
  kind: "dmarc", domain, orgName: org, contact: "", reportId: id, begin: end - DAY, end, receivedAt: end + 1000,
  policy: { p: "none", sp: "", pct: 100, adkim: "r", aspf: "r" },
  rows: [{ sourceIp: "192.0.2.1", count: 5, disposition: "none", dkimAligned: "pass", spfAligned: "fail", headerFrom: domain, envelopeFrom: "",
    envelopeTo: "", dkim: [{ domain, selector: "s1", result: "pass" }], spf: [] }] } satisfies DmarcReport & { receivedAt: number });

export function receiverReportContract(open: Open, openPeer?: (a: Store) => Store | Promise<Store>) {
  test("receiver reports: stored once per reporter and id, listed by domain, kind and period, by every node", async () => {
    const a = await open();
    const b = openPeer ? await openPeer(a) : a;
    const z = a.zone("us");
    expect(await z.putReceiverReport(dmarc("google.com", "1", T))).toBe(true);
    expect(await z.putReceiverReport(dmarc("google.com", "1", T))).toBe(false);
    expect(await z.putReceiverReport(dmarc("Yahoo", "1", T - DAY))).toBe(true);
    expect(await z.putReceiverReport(dmarc("google.com", "2", T, "b.test"))).toBe(true);
    expect(await z.putReceiverReport({ kind: "tls", domain: "a.test", orgName: "Google Inc.", contact: "", reportId: "t1", begin: T - DAY, end: T,
      receivedAt: T, policies: [{ policyType: "sts", policyDomain: "a.test", mxHosts: [], successful: 3, failed: 0, failures: [] }] })).toBe(true);
    const list = await b.zone("us").listReceiverReports({ domain: "a.test", kind: "dmarc", from: T - 10 * DAY, to: T + 1, limit: 10 });
    expect(list.map((r) => [r.orgName, r.reportId])).toEqual([["Yahoo", "1"], ["google.com", "1"]]);
    expect(list[1]).toEqual(dmarc("google.com", "1", T));
    expect((await b.zone("us").listReceiverReports({ domain: "a.test", kind: "dmarc", from: T - 10 * DAY, to: T + 1, limit: 1 })).length).toBe(1);
    expect((await b.zone("us").listReceiverReports({ domain: "a.test", kind: "tls", from: T - DAY, to: T + 1, limit: 10 })).map((r) => r.reportId)).toEqual(["t1"]);
    // Arrival counts too: a report about an old period that came in today.
    expect((await b.zone("us").listReceiverReports({ domain: "a.test", kind: "dmarc", from: T + 500, to: T + 2000, limit: 10 })).length).toBe(1);
    expect(await b.zone("eu").listReceiverReports({ domain: "a.test", kind: "dmarc", from: 0, to: T * 2, limit: 10 })).toEqual([]);
    if (b !== a) await b.close();
    await a.close();
  });
}
