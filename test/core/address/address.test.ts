import { describe, expect, test } from "bun:test";
import addrs from "email-addresses";
import { checkSyntax, parseAddress, parseAddressList, quoteLocalPart } from "../../../src/core/address/address.ts";

type Expected = { email: string; name?: string; group?: string; asciiDomain?: string; unicodeDomain?: string };

const LIST_CASES: [string, string, Expected[], string[]][] = [
  ["a bare address", "jack@example.com", [{ email: "jack@example.com" }], []],
  ["a display name", "Jack Bowman <jack@example.com>", [{ email: "jack@example.com", name: "Jack Bowman" }], []],
  ["a quoted display name with a comma", '"Doe, John" <john@x.com>', [{ email: "john@x.com", name: "Doe, John" }], []],
  [
    "unquoted Outlook-style names separated by semicolons",
    "Doe, John <john@x.com>; Smith, Jane <jane@y.com>",
    [{ email: "john@x.com", name: "Doe, John" }, { email: "jane@y.com", name: "Smith, Jane" }],
    [],
  ],
  ["a quoted local part", '"john smith"@example.com', [{ email: '"john smith"@example.com' }], []],
  ["an escaped quote in a local part", '"a\\"b"@example.com', [{ email: '"a\\"b"@example.com' }], []],
  ["a comment inside the local part", "john(work)@example.com", [{ email: "john@example.com" }], []],
  ["a trailing comment used as the name", "john@example.com (John Doe)", [{ email: "john@example.com", name: "John Doe" }], []],
  [
    "a group followed by a mailbox",
    "Friends: a@x.com, b@y.com;, c@z.com",
    [{ email: "a@x.com", group: "Friends" }, { email: "b@y.com", group: "Friends" }, { email: "c@z.com" }],
    [],
  ],
  ["an empty group", "Undisclosed recipients:;", [], []],
  [
    "a Unicode domain, keeping the given form",
    "user@bücher.de",
    [{ email: "user@bücher.de", asciiDomain: "xn--bcher-kva.de", unicodeDomain: "bücher.de" }],
    [],
  ],
  [
    "a punycode domain, decoding it for display",
    "user@xn--bcher-kva.de",
    [{ email: "user@xn--bcher-kva.de", asciiDomain: "xn--bcher-kva.de", unicodeDomain: "bücher.de" }],
    [],
  ],
  ["a Unicode local part and name", "José <josé@example.com>", [{ email: "josé@example.com", name: "José" }], []],
  ["semicolon separators", "a@b.com; c@d.com", [{ email: "a@b.com" }, { email: "c@d.com" }], []],
  ["empty entries between separators", "a@b.com,, ;c@d.com,", [{ email: "a@b.com" }, { email: "c@d.com" }], []],
  ["garbage between good addresses", "a@b.com, bogus, c@d.com", [{ email: "a@b.com" }, { email: "c@d.com" }], ["bogus"]],
  ["an unterminated quote without losing later addresses", '"oops <a@b.com>, c@d.com', [{ email: "c@d.com" }], ['"oops <a@b.com>']],
  ["a dotless domain as unparseable", "a@localhost", [], ["a@localhost"]],
  ["a domain with an underscore as unparseable", "a@b_c.com", [], ["a@b_c.com"]],
  ["an address literal as unparseable", "a@[127.0.0.1]", [], ["a@[127.0.0.1]"]],
  ["consecutive dots as unparseable", "a..b@example.com", [], ["a..b@example.com"]],
  ["a missing closing angle as unparseable", "Name <a@b.com", [], ["Name <a@b.com"]],
  ["an empty string as nothing at all", "   ", [], []],
];

describe("parseAddressList", () => {
  for (const [what, input, parsed, unparseable] of LIST_CASES) {
    test(`parses ${what}`, () => {
      const out = parseAddressList(input);
      expect(out.unparseable).toEqual(unparseable);
      expect(out.parsed.length).toBe(parsed.length);
      parsed.forEach((want, i) => expect(out.parsed[i]).toMatchObject(want));
    });
  }

  test("gives localpart and domain that rebuild the email", () => {
    for (const p of parseAddressList('"a b"@x.com, Bob <bob@ÉXAMPLE.com>, c@d.org').parsed) {
      expect(`${p.localpart}@${p.domain}`).toBe(p.email);
    }
  });

  test("keeps the case it was given and lower-cases only the derived domains", () => {
    const [p] = parseAddressList("John.Doe@Example.COM").parsed;
    expect(p).toMatchObject({ email: "John.Doe@Example.COM", asciiDomain: "example.com" });
  });

  test("never throws on hostile input", () => {
    const inputs = ['"'.repeat(5000), "(".repeat(5000), "<".repeat(1000) + "@", "\u0000@\u0000", ":;:;:;", "a@b.com".repeat(300)];
    for (const input of inputs) expect(() => parseAddressList(input)).not.toThrow();
    expect(parseAddressList(undefined as unknown as string)).toEqual({ parsed: [], unparseable: [] });
  });

  test("can skip the RFC 5321 rules when asked", () => {
    expect(parseAddressList("a@localhost", { shouldCheckSyntax: false }).parsed).toHaveLength(1);
  });
});

describe("parseAddress", () => {
  test("returns null for a list of two", () => {
    expect(parseAddress("a@b.com, c@d.com")).toBeNull();
  });

  test("accepts a display-name form", () => {
    expect(parseAddress("  Bob <bob@example.com> ")).toMatchObject({ email: "bob@example.com", name: "Bob" });
  });

  test("agrees with email-addresses on plain and simply-named addresses (fast path)", () => {
    const samples = [
      "a@b.co", "first.last@sub.example.org", "x+tag@ex-ample.com", "o'brien@example.ie", "_-!#$%&'*+/=?^`{|}~@x.io",
      "Jack Bowman <jack@example.com>", '"Doe, J." <j@x.com>', "J. Doe <jd@x.com>", "<bare@x.com>", '"" <a@b.com>',
      "John   Doe   <a@b.com>", '" spaced " <s@x.com>',
    ];
    // A deterministic spread of names and atoms, so the agreement is not limited to hand-picked cases.
    const atoms = ["a", "x.y", "first-last", "o'neil", "q+r", "Z9", "_u", "a.b.c"];
    const names = ["", "Ann", "Ann Lee", '"Lee, Ann"', "A. Lee", '"  Ann  "', "Ann_Lee"];
    for (const a of atoms) for (const n of names) samples.push(n ? `${n} <${a}@ex-1.example.org>` : `${a}@ex.io`);
    for (const s of samples) {
      const ours = parseAddress(s, { shouldCheckSyntax: false });
      const theirs = addrs.parseOneAddress({ input: s, rfc6532: true, atInDisplayName: true, commaInDisplayName: true });
      if (!theirs || theirs.type !== "mailbox") throw new Error(`reference parser refused ${s}`);
      expect(ours?.email).toBe(theirs.address);
      expect(ours?.name).toBe(theirs.name || undefined);
    }
  });
});

describe("parseAddress against its reference parser", () => {
  // The fast paths must never change an answer, so generated near-misses go through both.
  const PIECES = ["a", "B", ".", " ", "\t", "'", "-", "_", "+", "~", "x.y", '"', "é", "日本", "\u00a0", ",", "(", ")"];
  const LOCALS = ["a", "a.b", "a+b", "a..b", ".a", "a.", "Ab_c-d", "josé", "\u00a0a", " a"];
  let seed = 42;
  const pick = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const generate = (): string => {
    let name = "";
    for (let j = pick(6); j > 0; j--) name += PIECES[pick(PIECES.length)];
    if (pick(3) === 0) name = `"${name.replace(/["\\]/g, "")}"`;
    const local = LOCALS[pick(LOCALS.length)];
    const domain = ["ex.com", "bücher.de", "a\u00a0b.com"][pick(3)];
    return pick(2) ? `${name} <${local}@${domain}>` : `${local}@${domain}`;
  };

  test("agrees with email-addresses on 1,500 generated addresses", () => {
    const mismatches: unknown[] = [];
    for (let i = 0; i < 1_500; i++) {
      const input = generate();
      const ours = parseAddress(input, { shouldCheckSyntax: false });
      const ref = addrs.parseOneAddress({ input: input.trim(), rfc6532: true, atInDisplayName: true, commaInDisplayName: true });
      const want = ref?.type === "mailbox" ? { email: ref.address, name: ref.name || undefined } : null;
      const got = ours && { email: ours.email.replace(/^"(.*)"@/, "$1@").replace(/\\(.)/g, "$1"), name: ours.name };
      if (JSON.stringify(got) !== JSON.stringify(want)) mismatches.push({ input, got, want });
    }
    expect(mismatches).toEqual([]);
  });
});

describe("quoteLocalPart", () => {
  test("leaves dot-atoms alone and quotes everything else", () => {
    expect(quoteLocalPart("a.b+c")).toBe("a.b+c");
    expect(quoteLocalPart("a b")).toBe('"a b"');
    expect(quoteLocalPart('a"b')).toBe('"a\\"b"');
    expect(quoteLocalPart(".a")).toBe('".a"');
  });
});

describe("checkSyntax", () => {
  const long = (n: number) => "x".repeat(n);
  const CASES: [string, string, string | null][] = [
    ["accepts a normal address", "someone@example.com", null],
    ["accepts a 64-octet local part", `${long(64)}@example.com`, null],
    ["rejects a 65-octet local part", `${long(65)}@example.com`, "local part is longer than 64 octets"],
    ["counts local-part octets in UTF-8", `${"é".repeat(33)}@example.com`, "local part is longer than 64 octets"],
    ["rejects a 64-octet label", `a@${long(64)}.com`, "domain has a label longer than 63 octets"],
    ["rejects a domain over 253 octets", `a@${Array(5).fill(long(60)).join(".")}.com`, "domain is longer than 253 octets"],
    ["rejects an address over 254 octets", `${long(64)}@${Array(4).fill(long(47)).join(".")}.com`, "address is longer than 254 octets"],
    ["rejects a hyphen at the start of a label", "a@-x.com", "domain labels may hold only letters, digits and inner hyphens"],
    ["rejects a numeric top-level domain", "a@1.2.3.4", "top-level domain cannot be numeric"],
    ["rejects a dotless domain", "a@localhost", "domain must contain at least one dot"],
    ["rejects an address literal", "a@[10.0.0.1]", "address literals are not accepted as a domain"],
    ["rejects an empty quoted local part", '""@example.com', "local part is empty"],
    ["rejects a display name by default", "Bob <bob@example.com>", "must be a bare address without a display name"],
    ["rejects something that is not an address", "not an address", "is not a valid email address"],
    ["rejects an empty string", "", "email address is empty"],
    ["rejects an invalid punycode label", "a@xn--zz.com", "domain is not a valid internationalised domain name"],
  ];
  for (const [what, input, message] of CASES) {
    test(what, () => {
      const issues = checkSyntax(input);
      if (message === null) expect(issues).toEqual([]);
      else expect(issues.map((i) => i.message)).toContain(message);
    });
  }

  test("puts the caller's field path on every issue", () => {
    expect(checkSyntax("a@-x", { field: "personalizations.0.to.1.email" })[0]?.field).toBe("personalizations.0.to.1.email");
  });

  test("accepts a display name when allowed", () => {
    expect(checkSyntax("Bob <bob@example.com>", { allowDisplayName: true })).toEqual([]);
  });
});

describe("line breaks inside an address", () => {
  test("never parse as another address (header injection through address fields)", () => {
    expect(parseAddress("r@dest.test\r\nBcc: e@e.test")).toBeNull();
    expect(parseAddress("Name <r@dest.test>\nCc: e@e.test")).toBeNull();
    expect(parseAddressList("a@x.test, r@dest.test\r\nBcc: e@e.test")).toEqual({ parsed: [], unparseable: ["a@x.test, r@dest.test\r\nBcc: e@e.test"] });
    expect(checkSyntax("r@dest.test\r\nBcc: e@e.test").length).toBe(1);
  });
  test("a list may still be written over several lines between its addresses", () => {
    expect(parseAddressList("a@x.test,\r\n b@y.test").parsed.map((p) => p.email)).toEqual(["a@x.test", "b@y.test"]);
  });
});

describe("shapes nobody writes cost what ordinary ones do", () => {
  test("a mailbox longer than a header line (998 characters) is not one, and says so", () => {
    expect(parseAddress(`${"a".repeat(980)} <zoe@example.com>`)).not.toBeNull();
    expect(parseAddress(`${"a".repeat(990)} <zoe@example.com>`)).toBeNull();
    expect(checkSyntax(`${"a".repeat(1000)}@example.com`)).toEqual([{ message: "is longer than 998 characters" }]);
  });
  test("comments that do not close or nest deeper than four are no mailbox; ordinary ones still name it", () => {
    expect(parseAddress("zoe@example.com (Zoe (home))")).toMatchObject({ email: "zoe@example.com", name: "Zoe (home)" });
    expect(parseAddress("zoe@example.com (((((Zoe)))))")).toBeNull();
    expect(parseAddress("zoe@example.com (Zoe")).toBeNull();
  });
  test("a thousand mailboxes of a thousand blanks, brackets or quotes each are read in one pass each", () => {
    const list = (one: string) => parseAddressList(Array(1000).fill(one).join(", "));
    for (const one of [`Zoe <a${" ".repeat(980)}b@x.example>`, `z@x.example ${"(".repeat(980)}`, `"${"a".repeat(990)} <z@x.example>`]) {
      expect(list(one).parsed).toHaveLength(0);
    }
    expect(list(`a${" ".repeat(900)}b <z@x.example>`).parsed[999]).toMatchObject({ email: "z@x.example", name: "a b" });
  });
});
