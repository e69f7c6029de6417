import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { startHarness, type MailgunHarness, jsonOf } from "./helpers.ts";

// Real servers and an SMTP sink on a shared 2-core machine: generous, never timing-based.
setDefaultTimeout(60_000);

let h: MailgunHarness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });

const addresses = (items: { address?: string; value?: string }[]) => items.map((i) => i.address ?? i.value);

describe("suppressions through mailgun.js", () => {
  test("bounces: create one and many (JSON arrays), get, list with limit and follow the page links", async () => {
    const one = await h.mg.suppressions.create("example.com", "bounces", { address: "b1@dest.test", code: 550, error: "no such user", created_at: "Fri, 21 Oct 2011 11:02:55 GMT" });
    expect(one).toMatchObject({ status: 200, message: "Address has been added to the bounces table" });
    const many = await h.mg.suppressions.create("example.com", "bounces", ["b2", "b3", "b4", "b5"].map((a) => ({ address: `${a}@dest.test` })));
    expect(many.message).toBe("4 addresses have been added to the bounces table");
    const got = await h.mg.suppressions.get("example.com", "bounces", "b1@dest.test");
    expect(got).toMatchObject({ type: "bounces", address: "b1@dest.test", code: 550, error: "no such user" });
    expect((got as { created_at: Date }).created_at.toUTCString()).toBe("Fri, 21 Oct 2011 11:02:55 GMT");

    const first = await h.mg.suppressions.list("example.com", "bounces", { limit: 2 });
    expect(addresses(first.items)).toEqual(["b1@dest.test", "b2@dest.test"]);
    expect(first.pages.next!.url).toStartWith(`${h.base}/v3/example.com/bounces?page=next&address=b2%40dest.test`);
    expect(first.pages.next!.iteratorPosition).toBe("b2@dest.test");
    const second = await h.mg.suppressions.list("example.com", "bounces", { limit: 2, page: first.pages.next!.page });
    expect(addresses(second.items)).toEqual(["b3@dest.test", "b4@dest.test"]);
    const third = await h.mg.suppressions.list("example.com", "bounces", { limit: 2, page: second.pages.next!.page });
    expect(addresses(third.items)).toEqual(["b5@dest.test"]);
    const back = await h.mg.suppressions.list("example.com", "bounces", { limit: 2, page: third.pages.previous!.page });
    expect(addresses(back.items)).toEqual(["b3@dest.test", "b4@dest.test"]);
    const last = await h.mg.suppressions.list("example.com", "bounces", { limit: 2, page: first.pages.last!.page });
    expect(addresses(last.items)).toEqual(["b4@dest.test", "b5@dest.test"]);
    const beyond = await h.mg.suppressions.list("example.com", "bounces", { limit: 2, page: third.pages.next!.page });
    expect(beyond.items).toEqual([]);
  });

  test("a missing entry is 404 with Mailgun's message; delete one and delete all", async () => {
    const miss = await h.mg.suppressions.get("example.com", "bounces", "nobody@dest.test").catch((e) => e);
    expect(miss).toMatchObject({ status: 404, details: "Address not found in bounces table" });
    expect(await h.mg.suppressions.destroy("example.com", "bounces", "b1@dest.test"))
      .toEqual({ status: 200, message: "Bounced address has been removed", address: "b1@dest.test", value: "" });
    expect((await h.mg.suppressions.destroy("example.com", "bounces", "b1@dest.test").catch((e) => e)).status).toBe(404);
    expect(await h.mg.suppressions.destroyAll("example.com", "bounces")).toEqual({ status: 200, message: "Bounced addresses for this domain have been removed" });
    expect((await h.mg.suppressions.list("example.com", "bounces")).items).toEqual([]);
  });

  test("unsubscribes: one as a form with a tag, many as JSON with tags; encoded addresses in the path", async () => {
    expect(await h.mg.suppressions.create("example.com", "unsubscribes", { address: "u+1@dest.test", tag: "news" }))
      .toMatchObject({ message: "Address has been added to the unsubscribes table" });
    await h.mg.suppressions.create("example.com", "unsubscribes", [{ address: "u2@dest.test", tags: ["a", "b"] }, { address: "u3@dest.test" }]);
    expect(await h.mg.suppressions.get("example.com", "unsubscribes", "u+1@dest.test")).toMatchObject({ address: "u+1@dest.test", tags: ["news"] });
    const list = await h.mg.suppressions.list("example.com", "unsubscribes", {});
    expect(list.items.map((i) => [(i as { address: string }).address, (i as { tags: string[] }).tags])).toEqual([
      ["u+1@dest.test", ["news"]], ["u2@dest.test", ["a", "b"]], ["u3@dest.test", ["*"]]]);
    expect((await h.mg.suppressions.destroy("example.com", "unsubscribes", "u+1@dest.test")).message).toBe("Unsubscribe event has been removed");
  });

  test("complaints and whitelists (camelCase createdAt, value)", async () => {
    await h.mg.suppressions.create("example.com", "complaints", { address: "c1@dest.test" });
    expect(await h.mg.suppressions.get("example.com", "complaints", "c1@dest.test")).toMatchObject({ type: "complaints", address: "c1@dest.test" });
    expect(await h.mg.suppressions.create("example.com", "whitelists", { address: "w1@dest.test" }))
      .toEqual({ status: 200, message: "Address/Domain has been added to the whitelists table", type: "address", value: "w1@dest.test" });
    const w = await h.mg.suppressions.get("example.com", "whitelists", "w1@dest.test") as { value: string; createdAt: Date };
    expect(w.value).toBe("w1@dest.test");
    expect(w.createdAt.getTime()).toBeGreaterThan(0);
    const list = await h.call("GET", "/v3/example.com/whitelists");
    expect((await jsonOf(list)).items[0]).toMatchObject({ value: "w1@dest.test", type: "address", reason: "" });
    expect(await h.mg.suppressions.destroy("example.com", "whitelists", "w1@dest.test"))
      .toEqual({ status: 200, message: "Whitelist address/domain has been removed", value: "w1@dest.test", address: "" });
    const domain = await h.mg.suppressions.create("example.com", "whitelists", { domain: "dest.test" } as never).catch((e) => e);
    expect(domain.status).toBe(400);
  });

  test("import takes a CSV file; a bad address in a batch writes nothing", async () => {
    const form = new FormData();
    form.append("file", new Blob(["address,code,error\nimp1@dest.test,551,full\n\"imp2@dest.test\",550,\"no, such\"\n"]), "bounces.csv");
    const res = await h.call("POST", "/v3/example.com/bounces/import", { body: form });
    expect(await jsonOf(res)).toEqual({ message: "file uploaded successfully" });
    expect(await h.mg.suppressions.get("example.com", "bounces", "imp2@dest.test")).toMatchObject({ code: 550, error: "no, such" });
    const bad = await h.mg.suppressions.create("example.com", "bounces", [{ address: "ok@dest.test" }, { address: "not an address" }]).catch((e) => e);
    expect(bad.status).toBe(400);
    expect((await h.mg.suppressions.get("example.com", "bounces", "ok@dest.test").catch((e) => e)).status).toBe(404);
  });
});
