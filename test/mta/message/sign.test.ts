import { beforeAll, describe, expect, test } from "bun:test";
import { dkimVerify } from "mailauth/lib/dkim/verify.js";
import { generateDkimKeys, dkimRecordValue } from "../../../src/core/dkim-keys.ts";
import { createSigner, prepareKey } from "../../../src/mta/message/sign.ts";
import { openSsl } from "../../../src/mta/message/openssl-rsa.ts";
import { writeLean } from "../../../src/mta/message/mime.ts";
import type { DkimKey } from "../../../src/core/model.ts";
import { dkimpyVerify } from "../../helpers/dkimpy.ts";

const DOMAIN = "example.com";
let keys: DkimKey[] = [];
let records: Record<string, string> = {};
beforeAll(async () => {
  keys = (await generateDkimKeys("pk1")).map((k) => ({ ...k, domainId: 1 }));
  records = Object.fromEntries(keys.map((k) => [`${k.selector}._domainkey.${DOMAIN}`, dkimRecordValue(k)]));
});

const resolver = async (name: string, rr: string) => {
  const v = records[name];
  if (rr !== "TXT" || !v) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
  return [[v]];
};
const signer = (rsa: "auto" | "node" = "auto") => createSigner({ keysFor: async () => keys, now: () => 1_700_000_000_000, rsa });

// Folded and oddly spaced fields, a repeated To, no Reply-To, trailing blanks and empty lines.
const MESSAGE = Buffer.from([
  "From: \"News\"  <news@example.com>", "To: a@dest.test,\r\n\tb@dest.test", "To: c@dest.test", "Subject:   Hello \t there  ",
  "Date: Tue, 24 Nov 2026 10:00:00 +0000", "Message-ID: <m1@example.com>", "List-Unsubscribe: <https://example.com/u/1>",
  "List-Unsubscribe-Post: List-Unsubscribe=One-Click", "MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8", "",
  "Hello   world  ", "\tsecond line", "", "", ""].join("\r\n"), "latin1");

async function mailauthVerdicts(raw: Buffer) {
  const r = await dkimVerify(raw, { resolver: resolver as never });
  return r.results.map((x) => [x.algo, x.status.result]);
}

describe("DKIM signer", () => {
  test("RSA-SHA256 and Ed25519-SHA256 signatures pass mailauth and python3-dkim", async () => {
    const signed = await signer().sign(MESSAGE, DOMAIN);
    expect(await mailauthVerdicts(signed)).toEqual([["rsa-sha256", "pass"], ["ed25519-sha256", "pass"]]);
    expect(await dkimpyVerify(signed, records)).toEqual([true, true]);
  });

  test("over-signs From, To, Subject, Date, Message-ID, Reply-To and List-Unsubscribe(-Post): each once more than it appears", async () => {
    const signed = (await signer().sign(MESSAGE, DOMAIN)).toString("latin1");
    const h = /\bh=([^;]+);/.exec(signed.replace(/\r\n\t/g, " "))![1]!.split(":").map((s) => s.trim());
    const count = (n: string) => h.filter((x) => x === n).length;
    expect({ from: count("from"), to: count("to"), subject: count("subject"), date: count("date"), "message-id": count("message-id"),
      "reply-to": count("reply-to"), lu: count("list-unsubscribe"), lup: count("list-unsubscribe-post"), cc: count("cc"), ct: count("content-type") })
      .toEqual({ from: 2, to: 3, subject: 2, date: 2, "message-id": 2, "reply-to": 1, lu: 2, lup: 2, cc: 0, ct: 1 });
  });

  for (const added of ["From: evil@attacker.test", "Subject: changed", "Reply-To: evil@attacker.test", "List-Unsubscribe: <https://evil.test>"]) {
    test(`a "${added.split(":")[0]}" added after signing fails both verifiers`, async () => {
      const signed = await signer().sign(MESSAGE, DOMAIN);
      const tampered = Buffer.concat([Buffer.from(`${added}\r\n`), signed]);
      expect((await mailauthVerdicts(tampered)).map((v) => v[1])).toEqual(["fail", "fail"]);
      expect(await dkimpyVerify(tampered, records)).toEqual([false, false]);
    });
  }

  test("a body changed after signing fails; whitespace changes relaxed canonicalization ignores still pass", async () => {
    const signed = (await signer().sign(MESSAGE, DOMAIN)).toString("latin1");
    const changed = Buffer.from(signed.replace("Hello   world", "Hello   World"), "latin1");
    expect(await dkimpyVerify(changed, records)).toEqual([false, false]);
    const respaced = Buffer.from(signed.replace("Hello   world  ", "Hello world").replace("Subject:   Hello", "Subject: Hello"), "latin1");
    expect(await dkimpyVerify(respaced, records)).toEqual([true, true]);
  });

  test("an empty body and a body without a final CRLF verify", async () => {
    for (const body of ["", "no newline at the end"]) {
      const signed = await signer().sign(Buffer.from(`From: a@example.com\r\nSubject: s\r\n\r\n${body}`), DOMAIN);
      expect(await dkimpyVerify(signed, records)).toEqual([true, true]);
      expect((await mailauthVerdicts(signed)).map((v) => v[1])).toEqual(["pass", "pass"]);
    }
  });

  test("8-bit UTF-8 in a folded header and in the body (a NBSP, byte 0xa0, next to blanks) verifies", async () => {
    const raw = Buffer.from("From: a@example.com\r\nSubject: voilà  é \r\n\tsuite\u00a0\r\nTo: b@x.test\r\n\r\nHéllo wörld \u00a0\r\n日本語  \t\r\n\r\n", "utf8");
    const signed = await signer().sign(raw, DOMAIN);
    expect(await dkimpyVerify(signed, records)).toEqual([true, true]);
    expect((await mailauthVerdicts(signed)).map((v) => v[1])).toEqual(["pass", "pass"]);
  });

  test("a lean message whose To is folded over many lines verifies", async () => {
    const to = Array.from({ length: 40 }, (_, i) => ({ email: `r${i}@dest.test`, name: `Reader ${i}` }));
    const raw = writeLean({ from: { email: "a@example.com" }, to, subject: "many", text: "hi", attachments: [], date: 1_700_000_000_000,
      tracking: { opens: false, clicks: false, clickText: false, unsubscribe: false, honeypot: false } }, { text: "hi" }, "<m@example.com>", {});
    expect(raw.toString("latin1")).toContain(",\r\n ");
    const signed = await signer().sign(raw, DOMAIN);
    expect(await dkimpyVerify(signed, records)).toEqual([true, true]);
    expect((await mailauthVerdicts(signed)).map((v) => v[1])).toEqual(["pass", "pass"]);
  });

  test("no keys: the message goes unsigned", async () => {
    const s = createSigner({ keysFor: async () => [], now: () => 0 });
    expect((await s.sign(MESSAGE, DOMAIN)).equals(MESSAGE)).toBe(true);
  });
});

describe("RSA through the system OpenSSL", () => {
  test("libcrypto.so.3 is found at run time on this system", () => {
    expect(openSsl()).not.toBeNull();
  });

  test("OpenSSL and node:crypto give byte-identical signatures and messages", async () => {
    const rsa = keys.find((k) => k.algorithm === "rsa-sha256")!;
    const data = Buffer.from("dkim-signature:v=1; a=rsa-sha256; b=");
    expect(Buffer.from(prepareKey(rsa, "auto")(data)).equals(Buffer.from(prepareKey(rsa, "node")(data)))).toBe(true);
    const viaOpenSsl = await signer("auto").sign(MESSAGE, DOMAIN);
    const viaNode = await signer("node").sign(MESSAGE, DOMAIN);
    expect(viaOpenSsl.toString("latin1").split("DKIM-Signature:")[1]).toBe(viaNode.toString("latin1").split("DKIM-Signature:")[1]!);
    expect(await dkimpyVerify(viaNode, records)).toEqual([true, true]);
  });
});
