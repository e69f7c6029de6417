// Messages built ahead of their attempt (src/mta/delivery/lookahead.ts): one build per recipient,
// taken once, dropped when handed back, the oldest evicted past the cap, a failure read as "build
// in line".
import { describe, expect, test } from "bun:test";
import { createLookahead } from "../../../src/mta/delivery/lookahead.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("messages built ahead", () => {
  test("a second start for the same recipient does not build again; take hands the build over once", async () => {
    const a = createLookahead();
    let builds = 0;
    a.start("r1", async () => { builds++; return bytes("one"); });
    a.start("r1", async () => { builds++; return bytes("again"); });
    expect(builds).toBe(1);
    expect(new TextDecoder().decode((await a.take("r1"))!)).toBe("one");
    expect(a.take("r1")).toBeUndefined();
    expect(a.size()).toBe(0);
  });

  test("a failed build is taken as null (the attempt builds in line and meets the error itself)", async () => {
    const a = createLookahead();
    a.start("r1", async () => { throw new Error("no DKIM key"); });
    expect(await a.take("r1")).toBeNull();
  });

  test("a dropped row is forgotten, and past the cap the oldest goes first", async () => {
    const a = createLookahead(2);
    a.start("r1", async () => bytes("1"));
    a.start("r2", async () => bytes("2"));
    a.drop("r2");
    expect(a.size()).toBe(1);
    a.start("r3", async () => bytes("3"));
    a.start("r4", async () => bytes("4"));
    expect(a.size()).toBe(2);
    expect(a.take("r1")).toBeUndefined();
    expect(a.take("r3")).toBeDefined();
    expect(a.take("r4")).toBeDefined();
  });
});
