// Received mail survives a dead target and a kill -9: every message accepted with a 250 reaches
// its target once the target is back, after a restart, in each vendor's format (a Mailgun route, a
// SendGrid Inbound Parse hostname, a SparkPost relay webhook).
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import nodemailer from "nodemailer";
import { loadConfig } from "../../src/config/load.ts";
import { createApp } from "../../src/app.ts";
import { createLogger } from "../../src/log.ts";

const MESSAGES = 12;
const dir = mkdtempSync(join(tmpdir(), "postern-inbound-kill-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const freePort = () => new Promise<number>((resolve) => {
  const s = createServer().listen(0, "127.0.0.1", () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)); });
});

async function waitForPort(port: number, ms = 20_000) {
  const end = Date.now() + ms;
  for (;;) {
    try { (await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } })).end(); return; }
    catch { if (Date.now() > end) throw new Error(`port ${port} never opened`); await Bun.sleep(50); }
  }
}

test("a target down across a kill -9 still gets every received message", async () => {
  const seen = new Set<string>();
  let status = 503;
  const target = Bun.serve({ hostname: "127.0.0.1", port: 0, async fetch(req) {
    const path = new URL(req.url).pathname;
    const subject = path === "/sp"
      ? ((await req.json()) as { msys: { relay_message: { content: { subject: string } } } }[])[0]!.msys.relay_message.content.subject
      : String((await req.formData()).get("subject"));
    if (status === 200) seen.add(`${path} ${subject}`);
    return new Response("", { status });
  } });
  const smtpPort = await freePort();
  const file = join(dir, "postern.toml");
  writeFileSync(file, `[server]\nlisten = "127.0.0.1:0"\n[storage]\ndata_dir = "${dir}/data"\n[smtp]\nlisten = "127.0.0.1:${smtpPort}"\n` +
    `[mta]\nhostname = "mta.test"\n[webhooks]\nallow_private = true\nretry = ["1s"]\n`);
  const app = await createApp(loadConfig({ file, env: {} }), { log: createLogger({ level: "silent" }) });
  await app.domains.add("in.example.com");
  await app.domains.verify("in.example.com", true);
  await app.domains.set("in.example.com", { inbound: true });
  const principal = { accountId: 1, keyId: "test", kind: "account" as const, domain: null, grants: [] };
  const base = `http://127.0.0.1:${target.port}`;
  await app.inboundRules.createRoute(principal, { priority: 0, description: "", expression: "catch_all()", actions: [`forward("${base}/mg")`] });
  await app.inboundRules.putParseSetting(principal, { hostname: "parse.in.example.com", url: `${base}/sg`, spamCheck: false, sendRaw: false }, true);
  await app.inboundRules.createInboundDomain(principal, "relay.in.example.com");
  await app.inboundRules.putRelayWebhook(principal, null, { name: "r", target: `${base}/sp`, authToken: "t", matchDomain: "relay.in.example.com" });
  await app.stop();

  const serve = () => Bun.spawn(["bun", join(import.meta.dir, "../../cli/main.ts"), "--config", file, "serve"], { stdout: "ignore", stderr: "ignore" });
  const first = serve();
  await waitForPort(smtpPort);
  const smtp = nodemailer.createTransport({ host: "127.0.0.1", port: smtpPort, secure: false, ignoreTLS: true });
  const hosts: [string, string][] = [["in.example.com", "/mg"], ["parse.in.example.com", "/sg"], ["relay.in.example.com", "/sp"]];
  const expected = new Set<string>();
  for (let i = 0; i < MESSAGES; i++) {
    const [host, path] = hosts[i % hosts.length]!;
    await smtp.sendMail({ from: "a@sender.example", to: `box${i}@${host}`, subject: `m${i}`, text: "x" });
    expected.add(`${path} m${i}`);
  }
  await Bun.sleep(1500); // at least one failed attempt each
  first.kill(9);
  await first.exited;

  status = 200;
  const second = serve();
  const deadline = Date.now() + 60_000;
  while (seen.size < MESSAGES && Date.now() < deadline) await Bun.sleep(100);
  second.kill("SIGTERM");
  await second.exited;
  target.stop(true);
  expect([...seen].sort()).toEqual([...expected].sort());
}, 120_000);
