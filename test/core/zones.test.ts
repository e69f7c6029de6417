import { describe, expect, test } from "bun:test";
import { createZoneDirectory } from "../../src/core/zones.ts";
import type { Domain } from "../../src/core/model.ts";

function directory() {
  const domains = new Map<string, Partial<Domain>>([["eu.test", { name: "eu.test", zone: "eu" }], ["us.test", { name: "us.test", zone: "us" }]]);
  const dir = createZoneDirectory({
    getDomain: async (n) => (domains.get(n) as Domain) ?? null,
    remote: { eu: { url: "http://eu.node:8025", public_url: "https://t.eu.example" } }, publicUrl: "https://t.us.example",
  });
  return { dir, domains };
}

describe("the zone directory", () => {
  test("a domain of a zone served elsewhere names that zone's url and public_url; one served here names none", async () => {
    const { dir } = directory();
    expect(await dir.remoteFor("eu.test")).toEqual({ zone: "eu", url: "http://eu.node:8025", publicUrl: "https://t.eu.example" });
    expect(await dir.remoteFor("us.test")).toBeNull();
    expect(await dir.remoteFor("unknown.test")).toBeNull();
    expect(dir.publicUrlOf("eu")).toBe("https://t.eu.example");
    expect(dir.publicUrlOf("us")).toBe("https://t.us.example");
  });
  test("a sub-domain is in its parent's zone", async () => {
    const { dir } = directory();
    expect((await dir.remoteFor("news.EU.test"))?.zone).toBe("eu");
  });
  test("a domain added after a miss is found at once (misses are not remembered)", async () => {
    const { dir, domains } = directory();
    expect(await dir.zoneOf("new.test")).toBeNull();
    domains.set("new.test", { name: "new.test", zone: "eu" });
    expect(await dir.zoneOf("new.test")).toBe("eu");
  });
});
