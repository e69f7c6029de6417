// Console suppression lists (src/api/console/suppressions.ts) on a real postern: add one address or
// a CSV import's chunk, search and list by type, remove; bad input is a 400, never a 5xx.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { consoleSignedIn } from "./setup.ts";

setDefaultTimeout(60_000);
const ui = consoleSignedIn("domainKey");
const PATH = "/domains/example.com/suppressions";

describe("console suppressions", () => {
  test("add one, import a chunk, search by address, list by type, remove", async () => {
    expect(await (await ui.client.call("POST", PATH, { type: "bounces", address: "Gone@Dest.test", reason: "550 no such user" })).json()).toEqual({ added: 1 });
    const chunk = { type: "unsubscribes", entries: [{ address: "u1@dest.test" }, { address: "u2@dest.test", reason: "asked" }] };
    expect(await (await ui.client.call("POST", PATH, chunk)).json()).toEqual({ added: 2 });
    const byType = await (await ui.client.call("GET", `${PATH}?type=unsubscribes`)).json();
    expect(byType.items.map((r: { address: string }) => r.address)).toEqual(["u1@dest.test", "u2@dest.test"]);
    expect(byType.next).toBeNull();
    const found = await (await ui.client.call("GET", `${PATH}?q=gone@dest.test`)).json();
    expect(found.items).toEqual([expect.objectContaining({ type: "bounces", address: "gone@dest.test" })]);
    expect(await (await ui.client.call("DELETE", `${PATH}/unsubscribes/${encodeURIComponent("u1@dest.test")}`)).json()).toEqual({ removed: 1 });
    expect((await (await ui.client.call("GET", `${PATH}?type=unsubscribes`)).json()).items.map((r: { address: string }) => r.address)).toEqual(["u2@dest.test"]);
    expect(await (await ui.client.call("DELETE", `${PATH}/unsubscribes/${encodeURIComponent("u1@dest.test")}`)).json()).toEqual({ removed: 0 });
  });

  test("what the console adds is in the domain's suppression store (the one the sending path reads)", async () => {
    await ui.client.call("POST", PATH, { type: "bounces", address: "blocked@dest.test" });
    expect(await ui.env.t.app.suppressions.list("example.com", { address: "blocked@dest.test", limit: 10 })).toEqual([expect.objectContaining({ type: "bounces", address: "blocked@dest.test" })]);
  });

  test("bad input is a 400 with a message; an over-long import chunk is refused whole", async () => {
    for (const body of [{ address: "x@dest.test" }, { type: "bounces" }, { type: "bounces", entries: [] }, { type: "bounces", entries: [{ reason: "no address" }] }]) {
      const res = await ui.client.call("POST", PATH, body);
      expect(res.status).toBe(400);
      expect(typeof (await res.json()).message).toBe("string");
    }
    const big = { type: "bounces", entries: Array.from({ length: 1001 }, (_, i) => ({ address: `big${i}@dest.test` })) };
    expect((await ui.client.call("POST", PATH, big)).status).toBe(400);
    expect((await (await ui.client.call("GET", `${PATH}?q=big0@dest.test`)).json()).items).toEqual([]);
  });
});
