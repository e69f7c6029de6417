import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bodyOf, failure, startSpEnv, type SpEnv } from "./setup.ts";

let env: SpEnv;
beforeAll(async () => { env = await startSpEnv(); });
afterAll(async () => { await env.close(); });

type Entry = { recipient: string; type: string; source: string; description: string };
const pairs = (entries: Entry[]) => entries.map((e) => `${e.recipient}/${e.type}`);

describe("suppression list through the sparkpost client", () => {
  test("upsert takes type or the legacy booleans; get answers an array, one entry per type", async () => {
    const res = await env.domain.suppressionList.upsert([
      { recipient: "A+B@Dest.test", type: "non_transactional", description: "asked to leave" },
      { recipient: "both@dest.test", transactional: true, non_transactional: true, description: "legacy" },
    ]);
    expect(res.results).toEqual({ message: "Suppression List successfully updated" });
    const ab = await env.domain.suppressionList.get("a+b@dest.test");
    expect(ab.results).toEqual([expect.objectContaining({ recipient: "a+b@dest.test", type: "non_transactional", source: "Manually Added", description: "asked to leave" })]);
    expect(ab.total_count).toBe(1);
    const both = await env.domain.suppressionList.get("both@dest.test");
    expect(pairs(both.results)).toEqual(["both@dest.test/transactional", "both@dest.test/non_transactional"]);
  });

  test("a second upsert of the other type widens the entry to both types", async () => {
    await env.domain.suppressionList.upsert({ recipient: "a+b@dest.test", type: "transactional" });
    expect(pairs((await env.domain.suppressionList.get("a+b@dest.test")).results)).toEqual(["a+b@dest.test/transactional", "a+b@dest.test/non_transactional"]);
  });

  test("bounces and complaints recorded by postern show with SparkPost's sources", async () => {
    await env.t.app.suppressions.add("example.com", "bounces", [{ address: "bounced@dest.test", reason: "550 no such user" }]);
    await env.t.app.suppressions.add("example.com", "complaints", [{ address: "bounced@dest.test" }]);
    const got = await env.domain.suppressionList.get("bounced@dest.test");
    expect(got.results.map((e: Entry) => e.source)).toEqual(["Spam Complaint", "Spam Complaint"]);
  });

  test("search filters by types (the client's types[0]= form), sources, description and domain", async () => {
    const tx = await env.domain.suppressionList.list({ types: ["transactional"] });
    expect(tx.results.every((e: Entry) => e.type === "transactional")).toBe(true);
    expect(tx.total_count).toBe(3);
    const manual = await env.domain.suppressionList.list({ sources: "Manually Added", description: "LEAVE" });
    expect(pairs(manual.results)).toEqual(["a+b@dest.test/transactional", "a+b@dest.test/non_transactional"]);
    const strict = await env.domain.suppressionList.list({ description: "leave", description_strict: true });
    expect(strict.results).toEqual([]);
    expect((await env.domain.suppressionList.list({ domain: "other.test" })).total_count).toBe(0);
  });

  test("summary counts entries per source", async () => {
    const res = await env.domain.get({ uri: "suppression-list/summary" });
    expect(res.results).toEqual({ compliance: 0, manually_added: 4, unsubscribe_link: 0, bounce_rule: 0, list_unsubscribe: 0, spam_complaint: 2, total: 6 });
  });

  test("search pages with a cursor, the next link usable as is", async () => {
    const first = await env.domain.suppressionList.list({ per_page: 2 });
    expect(first.total_count).toBe(6);
    expect(first.results).toHaveLength(2);
    const next = first.links.find((l: { rel: string }) => l.rel === "next").href;
    const second = await env.domain.get({ uri: next });
    const third = await env.domain.get({ uri: second.links.find((l: { rel: string }) => l.rel === "next").href });
    const all = [...first.results, ...second.results, ...third.results];
    expect(new Set(pairs(all)).size).toBe(6);
    expect(third.links.some((l: { rel: string }) => l.rel === "next")).toBe(false);
  });

  test("delete with an unencoded + removes both types (204); a second delete is 404", async () => {
    expect(await env.domain.suppressionList.delete("a+b@dest.test")).toBe("");
    const err = await failure(env.domain.suppressionList.get("a+b@dest.test"));
    expect(err.statusCode).toBe(404);
    expect(err.errors[0]!.message).toBe("Recipient could not be found");
    expect((await failure(env.domain.suppressionList.delete("a+b@dest.test"))).statusCode).toBe(404);
  });

  test("delete with a type body removes only that type", async () => {
    const res = await env.call("DELETE", "/api/v1/suppression-list/both@dest.test", env.t.domainKey, { type: "transactional" });
    expect(res.status).toBe(204);
    expect(pairs((await env.domain.suppressionList.get("both@dest.test")).results)).toEqual(["both@dest.test/non_transactional"]);
  });

  test("malformed entries refuse the whole upsert", async () => {
    const err = await failure(env.domain.suppressionList.upsert([{ recipient: "ok@dest.test", type: "transactional" }, { recipient: "nope" }, { type: "x" }]));
    expect(err.statusCode).toBe(400);
    expect(err.errors[0]!.message).toMatch(/^PUT body contains 2 invalid or malformed recipient\(s\): nope, /);
    expect((await failure(env.domain.suppressionList.get("ok@dest.test"))).statusCode).toBe(404);
  });

  test("an entry is honoured at send time (1902 for a single recipient)", async () => {
    await env.domain.suppressionList.upsert({ recipient: "stop@dest.test", type: "non_transactional" });
    const err = await failure(env.domain.transmissions.send({ recipients: [{ address: "stop@dest.test" }], content: { from: "a@example.com", subject: "s", text: "t" } }));
    expect(err.statusCode).toBe(400);
    expect(err.errors[0]!.code).toBe("1902");
  });
});

describe("suppression scope", () => {
  test("an account key without a domain writes to every domain; /{domain}/suppression-list to one", async () => {
    await env.t.app.domains.add("second.test");
    await env.account.suppressionList.upsert({ recipient: "everywhere@dest.test", type: "transactional" });
    for (const d of ["example.com", "second.test"]) expect(await env.t.app.suppressions.get(d, "unsubscribes", "everywhere@dest.test")).not.toBeNull();
    await env.account.put({ uri: "second.test/suppression-list", json: { recipients: [{ recipient: "only2@dest.test", type: "transactional" }] } });
    expect(await env.t.app.suppressions.get("example.com", "unsubscribes", "only2@dest.test")).toBeNull();
    expect((await env.account.get({ uri: "second.test/suppression-list/only2@dest.test" })).results).toHaveLength(1);
    expect((await failure(env.domain.get({ uri: "suppression-list/only2@dest.test" }))).statusCode).toBe(404);
    expect((await failure(env.domain.get({ uri: "second.test/suppression-list" }))).statusCode).toBe(403);
  });

  test("unencoded and percent-encoded paths reach the same entry", async () => {
    const res = await env.call("GET", "/api/v1/suppression-list/everywhere%40dest.test", env.t.domainKey);
    expect(res.status).toBe(200);
    expect((await bodyOf(res)).results[0].recipient).toBe("everywhere@dest.test");
  });
});
