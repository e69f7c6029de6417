// The bench's signing check (issue #41): the sink counts DKIM-Signature fields, writes samples whole
// (DATA's dot-stuffing undone) and the bench verifies them with the peer's own keys, so a peer that
// should sign and does not, or whose signature fails, is called out.
import { afterAll, expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import nodemailer from "nodemailer";
import { genkeyRecord, signedLine, verifySamples } from "../../bench/dkim-check.ts";
import { startMxSink } from "../../bench/shaped-mix.ts";

const dirs: string[] = [];
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const record = `v=DKIM1; k=rsa; p=${publicKey.export({ type: "spki", format: "der" }).toString("base64")}`;
const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();

async function deliver(opts: { sign: boolean; count: number }) {
  const samples = mkdtempSync(join(tmpdir(), "dkim-check-"));
  dirs.push(samples);
  const sink = await startMxSink([{ name: "mx", host: "127.0.0.1" }], samples);
  const smtp = nodemailer.createTransport({ host: "127.0.0.1", port: sink.ports.get("mx")!, ignoreTLS: true,
    ...(opts.sign ? { dkim: { domainName: "bench.example", keySelector: "sel", privateKey: pem } } : {}) });
  // A line that starts with a dot: DATA stuffs it, and the sample must hold it unstuffed to verify.
  for (let i = 0; i < opts.count; i++) await smtp.sendMail({ from: "news@bench.example", to: `u${i}@dest.test`, subject: `m${i}`, text: `hello\r\n.dot line ${i}\r\nbye` });
  for (let t = 0; t < 100 && sink.dkim.messages < opts.count; t++) await Bun.sleep(20);
  smtp.close();
  sink.stop();
  return { sink, samples };
}

test("signed mail is counted by d= and a= and its samples verify with the peer's key", async () => {
  const { sink, samples } = await deliver({ sign: true, count: 3 });
  expect(sink.dkim).toEqual({ messages: 3, signed: 3, signatures: { "bench.example rsa-sha256": 3 } });
  expect(signedLine(sink, true)).toBe("DKIM-Signature at the sink: 3 of 3 messages (d=bench.example a=rsa-sha256 3)");
  expect(await verifySamples(samples, new Map([["sel._domainkey.bench.example", record]]))).toBe(
    "3 sampled messages verified with mailauth: d=bench.example a=rsa-sha256 3 of 3 pass");
});

test("a signature the published key does not match is called out", async () => {
  const { samples } = await deliver({ sign: true, count: 1 });
  const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ type: "spki", format: "der" }).toString("base64");
  expect(await verifySamples(samples, new Map([["sel._domainkey.bench.example", `v=DKIM1; k=rsa; p=${other}`]]))).toStartWith("SIGNATURES DO NOT VERIFY: ");
});

test("unsigned mail from a peer that must sign is NOT ALL SIGNED; from one that signs nothing, only counted", async () => {
  const { sink, samples } = await deliver({ sign: false, count: 2 });
  expect(signedLine(sink, true)).toBe("NOT ALL SIGNED: DKIM-Signature at the sink: 0 of 2 messages");
  expect(signedLine(sink, false)).toBe("DKIM-Signature at the sink: 0 of 2 messages");
  expect(await verifySamples(samples, new Map())).toBe("SIGNATURES DO NOT VERIFY: 2 sampled messages verified with mailauth: no signature; 2 unsigned");
});

test("opendkim-genkey's zone fragment becomes one TXT value", () => {
  const zone = `sel._domainkey\tIN\tTXT\t( "v=DKIM1; h=sha256; k=rsa; "\n\t  "p=MIIBIjAN"\n\t  "BgkqhkiG" )  ; ----- DKIM key sel for bench.example\n`;
  expect(genkeyRecord(zone)).toBe("v=DKIM1; h=sha256; k=rsa; p=MIIBIjANBgkqhkiG");
});
