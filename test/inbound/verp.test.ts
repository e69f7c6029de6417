import { describe, expect, test } from "bun:test";
import { decodeReturnPath, decodeUnsubscribeAddress, encodeReturnPath, encodeUnsubscribeAddress } from "../../src/inbound/verp.ts";

const SECRET = "test-verp-secret";
const DOMAIN = "bounces.example.com";
const LONG_IDS = { messageId: "W4LqXf2zRLSl5fC3e1J9vA", recipientId: "Zk3m9Qp2Rt7Yx1Lb4Nc8Dw" };
const SHORT_IDS = { messageId: "m_01", recipientId: "r-7" };

function encode(ids = LONG_IDS, bounceDomain = DOMAIN, secret = SECRET): string {
  return encodeReturnPath({ ...ids, bounceDomain, secret });
}

function localPart(address: string): string {
  return address.slice(0, address.lastIndexOf("@"));
}

describe("encodeReturnPath", () => {
  test("builds b+<lowercase base32>@<bounce domain>", () => {
    const address = encode();
    expect(address).toMatch(/^b\+[a-z2-7]+@bounces\.example\.com$/);
  });

  test("keeps the local part within 64 octets for two 22-character ids", () => {
    expect(localPart(encode()).length).toBeLessThanOrEqual(64);
  });

  test("makes short tokens for short ids", () => {
    expect(localPart(encode(SHORT_IDS)).length).toBeLessThan(32);
  });

  test("is deterministic and lowercases the domain", () => {
    expect(encode(LONG_IDS, "Bounces.Example.COM")).toBe(encode());
  });

  test("differs per recipient of the same message", () => {
    expect(encode({ ...LONG_IDS, recipientId: "other" })).not.toBe(encode());
  });

  test("rejects ids it cannot carry", () => {
    expect(() => encode({ messageId: "has space", recipientId: "r" })).toThrow(RangeError);
    expect(() => encode({ messageId: "", recipientId: "r" })).toThrow(RangeError);
    expect(() => encode({ messageId: "a".repeat(32), recipientId: "r" })).toThrow(RangeError);
    expect(() => encode({ messageId: "a".repeat(25), recipientId: "b".repeat(25) })).toThrow(RangeError);
  });
});

describe("decodeReturnPath", () => {
  test("round-trips long and short ids", () => {
    expect(decodeReturnPath(encode(), SECRET)).toEqual(LONG_IDS);
    expect(decodeReturnPath(encode(SHORT_IDS), SECRET)).toEqual(SHORT_IDS);
  });

  test("survives upper-casing by a remote MTA", () => {
    expect(decodeReturnPath(encode().toUpperCase(), SECRET)).toEqual(LONG_IDS);
  });

  test("accepts angle brackets and surrounding space", () => {
    expect(decodeReturnPath(` <${encode()}> `, SECRET)).toEqual(LONG_IDS);
  });

  test("accepts any of several secrets (key rotation)", () => {
    expect(decodeReturnPath(encode(), ["new-secret", SECRET])).toEqual(LONG_IDS);
  });

  test("returns null with the wrong secret", () => {
    expect(decodeReturnPath(encode(), "another-secret")).toBeNull();
  });

  test("returns null for a token moved to a foreign domain", () => {
    const token = localPart(encode());
    expect(decodeReturnPath(`${token}@bounces.attacker.example`, SECRET)).toBeNull();
  });

  test("returns null when any single token character is changed", () => {
    const address = encode();
    const token = localPart(address).slice(2);
    for (let i = 0; i < token.length; i++) {
      const replacement = token[i] === "a" ? "b" : "a";
      const tampered = `b+${token.slice(0, i)}${replacement}${token.slice(i + 1)}@${DOMAIN}`;
      expect(decodeReturnPath(tampered, SECRET)).toBeNull();
    }
  });

  test("returns null for a truncated or extended token", () => {
    const address = encode(SHORT_IDS);
    const token = localPart(address);
    expect(decodeReturnPath(`${token.slice(0, -1)}@${DOMAIN}`, SECRET)).toBeNull();
    expect(decodeReturnPath(`${token}a@${DOMAIN}`, SECRET)).toBeNull();
  });

  test("returns null for garbage", () => {
    const garbage = [
      "",
      "nobody",
      "user@example.com",
      "b+@bounces.example.com",
      "b+not-base32!@bounces.example.com",
      "b+aaaaaaaa@bounces.example.com",
      `b+${"a".repeat(70)}@bounces.example.com`,
      `${localPart(encode())}@`,
      "<>",
    ];
    for (const address of garbage) expect(decodeReturnPath(address, SECRET)).toBeNull();
  });
});

describe("unsubscribe mailboxes", () => {
  const mailbox = (scope: "all" | "tags") => encodeUnsubscribeAddress({ ...LONG_IDS, bounceDomain: DOMAIN, secret: SECRET, scope });
  test("round-trip with their scope, in any letter case, within 64 octets", () => {
    expect(mailbox("all")).toMatch(/^u\+[a-z2-7]+@bounces\.example\.com$/);
    expect(mailbox("all").split("@")[0]!.length).toBeLessThanOrEqual(64);
    expect(decodeUnsubscribeAddress(mailbox("all").toUpperCase(), SECRET)).toEqual({ ...LONG_IDS, scope: "all" });
    expect(decodeUnsubscribeAddress(mailbox("tags"), SECRET)).toEqual({ ...LONG_IDS, scope: "tags" });
  });
  test("are not return paths, and a return path with its prefix swapped is no mailbox", () => {
    expect(decodeReturnPath(mailbox("all"), SECRET)).toBeNull();
    const swapped = encode().replace(/^b\+/, "u+");
    expect(decodeUnsubscribeAddress(swapped, SECRET)).toBeNull();
    expect(decodeUnsubscribeAddress(mailbox("tags").replace(/^t\+/, "u+"), SECRET)).toBeNull();
    expect(decodeUnsubscribeAddress(mailbox("all"), "another-secret")).toBeNull();
  });
});
