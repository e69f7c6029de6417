// mailauth's DKIM and SPF verification through our resolver, against a real DNS server publishing
// a 2048-bit key in several strings of one TXT record: Bun's own resolveTxt made this
// "dkim=neutral (unknown key type)"; through the shared resolver it passes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { dkimSign } from "mailauth/lib/dkim/sign.js";
import { dkimVerify } from "mailauth/lib/dkim/verify.js";
import { spf } from "mailauth/lib/spf/index.js";
import { createSystemResolver, toMailauthResolver } from "../../src/dns.ts";
import { splitTxt, startDnsmasq, type DnsmasqServer } from "../helpers/dnsmasq.ts";

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const p = publicKey.export({ type: "spki", format: "der" }).toString("base64");
// An SPF record longer than one string, as large senders publish it.
const SPF = `v=spf1 ${Array.from({ length: 14 }, (_, i) => `ip4:198.51.100.${i + 1}`).join(" ")} ${Array.from({ length: 14 }, (_, i) => `ip4:203.0.113.${i + 1}`).join(" ")} -all`;
let dns: DnsmasqServer;

beforeAll(async () => {
  dns = await startDnsmasq([
    { type: "TXT", name: "k1._domainkey.example.org", strings: splitTxt(`v=DKIM1; k=rsa; p=${p}`) },
    { type: "TXT", name: "example.org", strings: splitTxt(SPF) },
  ]);
});
afterAll(() => dns.stop());

describe("mailauth through the shared resolver", () => {
  test("a DKIM signature whose 2048-bit key is published in several strings verifies", async () => {
    const message = "From: a@example.org\r\nTo: b@example.net\r\nSubject: hi\r\nDate: Tue, 24 Nov 2026 10:00:00 +0000\r\n\r\nHello.\r\n";
    // mailauth's typings lack the signatureData form its sign() reads.
    const signed = await dkimSign(message, { signatureData: [{ signingDomain: "example.org", selector: "k1",
      privateKey: privateKey.export({ type: "pkcs8", format: "pem" }) as string }] } as never);
    expect(signed.signatures).toContain("d=example.org");
    const raw = signed.signatures + message;
    const result = await dkimVerify(Buffer.from(raw), { resolver: toMailauthResolver(createSystemResolver([dns.server])) as never });
    expect(result.results.map((r: { status: { result: string } }) => r.status.result)).toEqual(["pass"]);
  });

  test("an SPF record longer than one string is read whole", async () => {
    expect(SPF.length).toBeGreaterThan(255);
    const res = await spf({ sender: "a@example.org", ip: "203.0.113.14", helo: "mx.example.org", mta: "mx.example.net",
      resolver: toMailauthResolver(createSystemResolver([dns.server])) as never });
    expect(res.status.result).toBe("pass");
  });
});
