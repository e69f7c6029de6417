// The per-message cost of each step of the MTA's hot path, measured in-process one at a time:
// RSA-2048 and Ed25519 signatures, the whole DKIM signer (ours, and mailauth's for reference),
// MIME composition, and SMTP over one reused connection to the bench sink.
import { dkimSign } from "mailauth/lib/dkim/sign.js";
import { generateDkimKeys } from "../src/core/dkim-keys.ts";
import { createSigner, prepareKey } from "../src/mta/message/sign.ts";
import { openSsl } from "../src/mta/message/openssl-rsa.ts";
import { prepareMessage } from "../src/mta/message/compose.ts";
import { createTokenCodec } from "../src/tracking/token.ts";
import { SmtpClient } from "../src/mta/delivery/smtp-client.ts";
import type { StoredMessage } from "../src/core/store-port.ts";
import type { DkimKey } from "../src/core/model.ts";

/** CPU ms (user + system, all threads) per call of `fn`, after a warm-up. */
async function cpuPerOp(fn: () => unknown, n: number): Promise<number> {
  for (let i = 0; i < Math.min(50, n); i++) await fn();
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) await fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / n;
}

export function benchMessage(i: number, html: string): StoredMessage {
  const content = JSON.stringify({ from: { email: "news@bench.example", name: "Bench" }, to: [{ email: `user${i}@dest${i % 50}.test` }],
    subject: `Message ${i}`, text: `Hello user ${i}`, html, attachments: [], date: 1_700_000_000_000, tracking: {} });
  return { id: `m${i}`, sendId: `s${i}`, domain: "bench.example", messageIdHeader: `<m${i}@bench.example>`, from: "news@bench.example",
    subject: `Message ${i}`, content, raw: null, tags: [], metadata: {}, callbackUrl: null, source: "bench", isTest: false, size: 3000, createdAt: 1_700_000_000_000 };
}

export async function measureSteps(html: string, sinkPort: number): Promise<[string, number][]> {
  const keys: DkimKey[] = (await generateDkimKeys("b1")).map((k) => ({ ...k, domainId: 1 }));
  const rsa = keys.find((k) => k.algorithm === "rsa-sha256")!;
  const ed = keys.find((k) => k.algorithm === "ed25519-sha256")!;
  const data = Buffer.alloc(600, "x");
  const compose = { publicUrl: "http://127.0.0.1:8025", codec: createTokenCodec("bench-secret"), hostname: "mta.bench.test" };
  let i = 0;
  const mime = await prepareMessage(benchMessage(0, html), [], compose).build("");
  const signer = createSigner({ keysFor: async () => keys, now: () => 1_700_000_000_000 });
  const out: [string, number][] = [];
  const rsaFfi = prepareKey(rsa, "auto");
  if (openSsl()) out.push(["RSA-2048 signature, system OpenSSL (bun:ffi)", await cpuPerOp(() => rsaFfi(data), 500)]);
  const rsaNode = prepareKey(rsa, "node");
  out.push(["RSA-2048 signature, node:crypto", await cpuPerOp(() => rsaNode(data), 500)]);
  const edSign = prepareKey(ed, "node");
  out.push(["Ed25519 signature", await cpuPerOp(() => edSign(data), 1000)]);
  out.push(["DKIM RSA + Ed25519, postern's signer (whole)", await cpuPerOp(() => signer.sign(mime, "bench.example"), 500)]);
  out.push(["DKIM RSA + Ed25519, mailauth (reference)", await cpuPerOp(() => dkimSign(mime, { signatureData: keys.map((k) => ({ signingDomain: "bench.example",
    selector: k.selector, privateKey: k.privateKeyPem, algorithm: k.algorithm })) } as never), 200)]);
  out.push(["MIME composition (lean writer, as composed for delivery)", await cpuPerOp(() => prepareMessage(benchMessage(i++, html), [], compose).build(""), 1000)]);
  const client = await SmtpClient.open({ host: "127.0.0.1", port: sinkPort, isStaticRoute: true }, { hostname: "mta.bench.test", tls: "none" });
  out.push(["SMTP transaction, one reused connection (client side)", await cpuPerOp(() => client.send("b@bench.example", [`r${i++}@dest.test`], mime), 2000)]);
  client.close();
  return out;
}
