// The records a domain publishes: receivers' reports go to dmarc@ and tlsrpt@ of its bounce domain,
// and a bounce domain outside the domain's tree gets the consent record RFC 7489 §7.1 asks for.
import { describe, expect, test } from "bun:test";
import { recordsFor } from "../../src/core/domain-dns.ts";
import type { Domain } from "../../src/core/model.ts";

const domain = { name: "shop.test", inbound: false } as Domain;
const ctx = (bounceDomain: string) => ({ mtaHostname: "mta.test", bounceDomain, trackingHost: "t.test" });

describe("report records", () => {
  test("with each domain's own bounce domain: rua and TLS-RPT at bounces.<domain>, no consent record", () => {
    const r = recordsFor(domain, [], ctx(""));
    expect(r.find((x) => x.purpose === "dmarc")).toMatchObject({ name: "_dmarc.shop.test", value: "v=DMARC1; p=none; rua=mailto:dmarc@bounces.shop.test" });
    expect(r.find((x) => x.purpose === "tls-rpt")).toMatchObject({ name: "_smtp._tls.shop.test", value: "v=TLSRPTv1; rua=mailto:tlsrpt@bounces.shop.test" });
    expect(r.some((x) => x.purpose === "dmarc-report-auth")).toBe(false);
  });

  test("with a shared bounce domain elsewhere: the consent record under it", () => {
    const r = recordsFor(domain, [], ctx("bounces.mail-host.test"));
    expect(r.find((x) => x.purpose === "dmarc")!.value).toBe("v=DMARC1; p=none; rua=mailto:dmarc@bounces.mail-host.test");
    expect(r.find((x) => x.purpose === "dmarc-report-auth")).toMatchObject({ type: "TXT", name: "shop.test._report._dmarc.bounces.mail-host.test", value: "v=DMARC1" });
  });
});
