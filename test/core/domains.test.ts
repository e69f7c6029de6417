import { describe, expect, test } from "bun:test";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import { createDomainService } from "../../src/core/domains.ts";
import { createMockResolver } from "../../src/dns.ts";

// Zones in the domain lifecycle: a domain is placed in a zone once, never moved.
function service(sharedControl: boolean) {
  const store = openSqliteStore(":memory:", ["us"]);
  return createDomainService({
    control: store.control, resolver: createMockResolver({}), now: () => 0,
    zones: { names: ["us", "eu"], default: "us", remote: { eu: { url: "https://eu.node.example", public_url: "https://track.eu.example" } }, sharedControl },
    dns: { mtaHostname: "mta.test", bounceDomain: "", trackingHost: "track.us.example" },
  });
}

describe("domains and zones", () => {
  test("with shared control data, --zone places a domain in a zone other nodes serve; its tracking CNAME is that zone's public_url", async () => {
    const domains = service(true);
    expect((await domains.add("eu.test", { zone: "eu" })).zone).toBe("eu");
    expect((await domains.records("eu.test")).find((r) => r.purpose === "tracking")?.value).toBe("track.eu.example");
    await domains.add("us.test");
    expect((await domains.records("us.test")).find((r) => r.purpose === "tracking")?.value).toBe("track.us.example");
  });
  test("without shared control data, the domain must be added at the zone's node", async () => {
    await expect(service(false).add("eu.test", { zone: "eu" })).rejects.toThrow(/served by https:\/\/eu\.node\.example: add the domain on that node/);
  });
  test("moving a domain to another zone is refused with a clear message, by add and by set", async () => {
    const domains = service(true);
    await domains.add("a.test", { zone: "us" });
    await expect(domains.add("a.test", { zone: "eu" })).rejects.toThrow(/domain a\.test lives in zone us; moving a domain to another zone \(eu\) is not supported/);
    await expect(domains.set("a.test", { zone: "eu" })).rejects.toThrow(/lives in zone us; moving/);
    expect((await domains.set("a.test", { zone: "us", openTracking: true })).openTracking).toBe(true);
    await expect(domains.add("a.test")).rejects.toThrow(/already exists/);
  });
});
