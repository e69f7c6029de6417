// Console domains (src/api/console/domains.ts) on a real postern: add a domain and see the DNS
// records it needs with their live status, Verify, change its settings; bad input is a 400.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { consoleSignedIn } from "./setup.ts";

setDefaultTimeout(60_000);
const ui = consoleSignedIn("accountKey");

describe("console domains", () => {
  test("an added domain lists its DNS records as missing until published; Verify keeps it unverified", async () => {
    const added = await (await ui.client.call("POST", "/domains", { name: "New.Example.net" })).json();
    expect(added).toMatchObject({ name: "new.example.net", settings: expect.any(Object) });
    expect(added.records.length).toBeGreaterThan(0);
    expect(added.records.some((r: { type: string }) => r.type === "TXT")).toBe(true);
    expect((await (await ui.client.call("GET", "/domains")).json()).map((d: { name: string }) => d.name)).toContain("new.example.net");
    const detail = await (await ui.client.call("GET", "/domains/new.example.net")).json();
    expect(detail.records.filter((r: { required: boolean }) => r.required).every((r: { status: string }) => r.status !== "ok")).toBe(true);
    const verified = await (await ui.client.call("POST", "/domains/new.example.net/verify")).json();
    expect(verified.name).toBe("new.example.net");
    expect(verified.state).not.toBe("verified");
  });

  test("settings toggles and the sending limit are saved", async () => {
    const res = await (await ui.client.call("PATCH", "/domains/example.com", { openTracking: true, clickTracking: false, limit: "100/day" })).json();
    expect(res.settings).toMatchObject({ openTracking: true, clickTracking: false, limit: "100/day" });
    const d = (await ui.env.t.app.domains.get("example.com"))!;
    expect([d.openTracking, d.clickTracking, d.limitMax]).toEqual([true, false, 100]);
  });

  test("bad input is a 400 with a message; an unknown domain is a 404", async () => {
    for (const [method, path, body] of [["PATCH", "/domains/example.com", { openTracking: "yes" }], ["POST", "/domains", {}], ["POST", "/domains", { name: "not a domain" }]] as const) {
      const res = await ui.client.call(method, path, body);
      expect(res.status).toBe(400);
      expect(typeof (await res.json()).message).toBe("string");
    }
    expect((await ui.client.call("GET", "/domains/nowhere.test")).status).toBe(404);
  });
});
