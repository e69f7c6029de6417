// The world the doctor tests look at: a real dnsmasq holding good and broken zones, a SERVFAIL
// server behind one blocklist zone, and domains with real DKIM keys in a real (in-memory) store.
import { generateDkimKeys, dkimRecordValue } from "../../src/core/dkim-keys.ts";
import type { Store } from "../../src/core/store-port.ts";
import { startDnsmasq, splitTxt, type ZoneRecord } from "../helpers/dnsmasq.ts";
import { startServfailDns } from "../helpers/servfail-dns.ts";

export const MTA = "mta.good.test";
/** Egress addresses: .5 and 2001:db8::5 forward-confirmed, .6 a PTR naming another host, .7 and 2001:db8::6 none. */
export const EGRESS = [
  { address: "127.0.0.5", ehlo: MTA }, { address: "127.0.0.6", ehlo: "mx6.good.test" }, { address: "127.0.0.7", ehlo: "mx7.good.test" },
  { address: "2001:db8::5", ehlo: "v6.good.test" }, { address: "2001:db8::6", ehlo: "v6b.good.test" },
];
export const V6_5_PTR = "5.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa";
export const ZONES = { ip_zones: ["bl.test", "nortest.test", "refuse.test", "sf.test"], domain_zones: ["dbl.test"], spamhaus_dqs_key: "" };

export async function dkimKeysFor(selector: string) {
  return generateDkimKeys(selector);
}

export async function startWorld(good: { selector: string; algorithm: string; publicKey: string }[]) {
  const servfail = await startServfailDns();
  const txt = (name: string, value: string): ZoneRecord => ({ type: "TXT", name, strings: splitTxt(value) });
  const spf = "v=spf1 ip4:127.0.0.0/24 ip6:2001:db8::/32 -all";
  const records: ZoneRecord[] = [
    { type: "A", name: MTA, value: "127.0.0.5" }, { type: "PTR", name: "5.0.0.127.in-addr.arpa", value: MTA },
    { type: "PTR", name: "6.0.0.127.in-addr.arpa", value: "other.good.test" }, { type: "A", name: "mx6.good.test", value: "127.0.0.6" },
    { type: "AAAA", name: "v6.good.test", value: "2001:db8::5" }, { type: "PTR", name: V6_5_PTR, value: "v6.good.test" },
    // good.test: everything right.
    txt("good.test", spf), txt("bounces.good.test", spf), { type: "MX", name: "bounces.good.test", value: MTA },
    txt("_dmarc.good.test", "v=DMARC1; p=reject"), { type: "A", name: "email.good.test", value: "127.0.0.5" },
    ...good.map((k) => txt(`${k.selector}._domainkey.good.test`, dkimRecordValue(k as never))),
    // bad.test: SPF fails, good.test's key under its first selector, none under the second, no DMARC, no bounce MX, tracking elsewhere.
    txt("bad.test", "v=spf1 ip4:192.0.2.1 -all"), txt(`${good[0]!.selector}._domainkey.bad.test`, dkimRecordValue(good[0] as never)),
    { type: "A", name: "email.bad.test", value: "192.0.2.9" },
    // none.test: DMARC p=none.
    txt("_dmarc.none.test", "v=DMARC1; p=none; rua=mailto:d@none.test"),
    // bl.test: RFC 5782 test entry, .6 listed; nortest.test: no test entry (so .5's listing is not believed).
    { type: "A", name: "2.0.0.127.bl.test", value: "127.0.0.2" }, { type: "A", name: "6.0.0.127.bl.test", value: "127.0.0.3" },
    { type: "A", name: "5.0.0.127.nortest.test", value: "127.0.0.2" },
    // refuse.test answers everything 127.255.255.254 (a list refusing a public resolver); sf.test is SERVFAIL.
    { type: "ADDRESS", name: "refuse.test", value: "127.255.255.254" }, { type: "FORWARD", name: "sf.test", value: `127.0.0.1#${servfail.port}` },
    // dbl.test: TEST listed, bad.test listed.
    { type: "A", name: "TEST.dbl.test", value: "127.0.1.2" }, { type: "A", name: "bad.test.dbl.test", value: "127.0.1.2" },
  ];
  const dns = await startDnsmasq(records);
  return { dns, stop: async () => { await dns.stop(); servfail.stop(); } };
}

export async function addDomain(store: Store, name: string, keys: Awaited<ReturnType<typeof generateDkimKeys>>) {
  return store.control.insertDomain({ name, zone: "us", wildcard: false, dkimSelector: keys[0]!.selector, keys, validation: false, botDetection: false,
    openTracking: false, clickTracking: false, unsubscribeTracking: false, inbound: false, limitMax: 0, limitWindow: "month" }, 1);
}
