import { describe, expect, test } from "bun:test";
import { createMockResolver, type Resolver } from "../../src/dns.ts";
import { createMailHostLookup, interpretMx } from "../../src/validation/mail-hosts.ts";

const ZONES = {
  "mx.example": { mx: [{ exchange: "mx2.mx.example.", priority: 20 }, { exchange: "MX1.mx.example", priority: 10 }] },
  "a-only.example": { a: ["192.0.2.1"] },
  "v6-only.example": { aaaa: ["2001:db8::1"] },
  "null.example": { mx: [{ exchange: ".", priority: 0 }] },
  "txt-only.example": { txt: [["v=spf1 -all"]] },
};

const failing = (code: string): Resolver => {
  const fail = async (): Promise<never> => {
    throw Object.assign(new Error(code), { code });
  };
  return { mx: fail, txt: fail, a: fail, aaaa: fail, cname: fail };
};

const lookupWith = (resolver: Resolver, timeoutMs = 1_000) =>
  createMailHostLookup({ resolver, now: () => 0, ttlMs: 60_000, timeoutMs });

describe("interpretMx", () => {
  test("orders hosts by preference, lower-cased, without trailing dots", () => {
    expect(interpretMx(ZONES["mx.example"].mx)).toEqual({ kind: "mx", hosts: ["mx1.mx.example", "mx2.mx.example"] });
  });
  test("reads a lone '.' or empty exchange as a null MX", () => {
    expect(interpretMx([{ exchange: "", priority: 0 }]).kind).toBe("null_mx");
    expect(interpretMx([{ exchange: ".", priority: 0 }]).kind).toBe("null_mx");
  });
});

describe("createMailHostLookup", () => {
  const lookup = lookupWith(createMockResolver(ZONES));
  const CASES: [string, string, string, string[]][] = [
    ["uses MX records when present", "mx.example", "mx", ["mx1.mx.example", "mx2.mx.example"]],
    ["falls back to an A record as the implicit MX", "a-only.example", "implicit_mx", ["a-only.example"]],
    ["falls back to an AAAA record as the implicit MX", "v6-only.example", "implicit_mx", ["v6-only.example"]],
    ["reports a null MX", "null.example", "null_mx", []],
    ["reports no mail hosts when the name has no MX, A or AAAA", "txt-only.example", "none", []],
    ["reports no mail hosts for a name that does not exist", "nowhere.example", "none", []],
  ];
  for (const [what, domain, kind, hosts] of CASES) {
    test(what, async () => expect(await lookup.lookup(domain)).toMatchObject({ kind, hosts }));
  }

  test("reports a resolver timeout as a timeout", async () => {
    expect((await lookupWith(failing("ETIMEOUT")).lookup("x.example")).kind).toBe("timeout");
  });

  test("reports SERVFAIL as an error with its code", async () => {
    const got = await lookupWith(failing("ESERVFAIL")).lookup("x.example");
    expect(got).toMatchObject({ kind: "error", errorCode: "ESERVFAIL" });
  });

  test("gives up at its own deadline when the resolver hangs", async () => {
    const hang = (): Promise<never> => new Promise(() => {});
    const resolver: Resolver = { mx: hang, txt: hang, a: hang, aaaa: hang, cname: hang };
    expect((await lookupWith(resolver, 20).lookup("slow.example")).kind).toBe("timeout");
  });

  test("asks DNS once for concurrent and repeated look-ups of one domain", async () => {
    let calls = 0;
    const inner = createMockResolver(ZONES);
    const counting: Resolver = { ...inner, mx: (n) => (calls++, inner.mx(n)) };
    const cached = lookupWith(counting);
    await Promise.all([cached.lookup("mx.example"), cached.lookup("mx.example")]);
    await cached.lookup("mx.example");
    expect(calls).toBe(1);
  });

  test("asks again once the cached answer has expired", async () => {
    let now = 0;
    let calls = 0;
    const inner = createMockResolver(ZONES);
    const resolver: Resolver = { ...inner, mx: (n) => (calls++, inner.mx(n)) };
    const lookup = createMailHostLookup({ resolver, now: () => now, ttlMs: 1_000 });
    await lookup.lookup("mx.example");
    now = 1_000;
    await lookup.lookup("mx.example");
    expect(calls).toBe(2);
  });

  test("does not cache a timeout", async () => {
    let calls = 0;
    const inner = failing("ETIMEOUT");
    const lookup = lookupWith({ ...inner, mx: (n) => (calls++, inner.mx(n)) });
    await lookup.lookup("x.example");
    await lookup.lookup("x.example");
    expect(calls).toBe(2);
  });
});

describe("Bun's not-found codes", () => {
  test("an MX answer of ENOTFOUND (Bun's NODATA) still falls back to the domain's A record", async () => {
    const notFound = () => Promise.reject(Object.assign(new Error("not found"), { code: "ENOTFOUND" }));
    const resolver = { mx: notFound, txt: notFound, cname: notFound, aaaa: notFound, a: async () => ["192.0.2.1"] };
    const lookup = createMailHostLookup({ resolver, now: () => 0, ttlMs: 1000 });
    expect(await lookup.lookup("aonly.test")).toEqual({ kind: "implicit_mx", hosts: ["aonly.test"] });
  });
});
