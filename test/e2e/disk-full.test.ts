// Low and full disk for real, on a 96 MiB tmpfs holding data_dir (needs root to mount; skipped with
// the reason otherwise). Low: under min_free every surface refuses new mail in its own 503 shape with
// Retry-After, SMTP answers 452 4.3.1 at MAIL FROM, /healthz says degraded, and accepting resumes
// once space returns. Full (min_free = "0"): 20 clients (2 over SMTP) send while a filler takes every byte; no
// answer is a 5xx other than 503, the server stays up, every 202 is delivered once space returns,
// and every SQLite file passes integrity_check.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statfsSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import SMTPConnection from "nodemailer/lib/smtp-connection/index.js";
import { loadConfig } from "../../src/config/load.ts";
import { createApp, type App } from "../../src/app.ts";
import { createLogger } from "../../src/log.ts";
import { writeConfig } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";

const MiB = 1024 * 1024;
const root = mkdtempSync(join(tmpdir(), "postern-disk-"));
let mounted = false;
let why = "";
beforeAll(() => {
  if (process.getuid?.() !== 0) { why = "not root: cannot mount a tmpfs"; return; }
  const r = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=96m", "tmpfs", root]);
  mounted = r.exitCode === 0;
  if (!mounted) why = `mount -t tmpfs failed: ${r.stderr.toString().trim()}`;
});
afterAll(() => {
  if (mounted) Bun.spawnSync(["umount", "-l", root]);
  rmSync(root, { recursive: true, force: true });
});

const freeBytes = (dir: string) => { const s = statfsSync(dir); return Number(s.bavail) * Number(s.bsize); };

/** Writes a filler file until `leaveFree` bytes are free (0: until the disk refuses every byte). */
function fill(dir: string, leaveFree: number): string {
  const file = join(dir, `filler-${Math.random().toString(36).slice(2)}`);
  const fd = openSync(file, "w");
  try {
    for (const size of [MiB, 4096, 512]) {
      const chunk = Buffer.alloc(size, 1);
      while (freeBytes(dir) - size >= leaveFree) {
        try { writeSync(fd, chunk); } catch { break; }
      }
    }
  } finally { closeSync(fd); }
  return file;
}

async function start(dir: string, minFree: string, sink: Sink): Promise<{ app: App; url: string; smtpPort: number; key: string; pass: string }> {
  mkdirSync(dir, { recursive: true });
  const file = writeConfig(dir, `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n[storage]\nmin_free = "${minFree}"\n`);
  const app = await createApp(loadConfig({ file, env: {} }), { log: createLogger({ level: process.env.POSTERN_LOG ? "warn" : "silent" }) });
  await app.domains.add("example.com");
  await app.domains.verify("example.com", true);
  const key = (await app.access.createKey({ kind: "domain", domain: "example.com" })).key;
  const { password } = await app.access.setCredential("example.com", "app");
  const where = await app.start();
  return { app, url: `http://${where.http}`, smtpPort: Number(where.smtp!.split(":").pop()), key, pass: password };
}

const sendgrid = (url: string, key: string, to: string) => fetch(`${url}/v3/mail/send`, {
  method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
  body: JSON.stringify({ personalizations: [{ to: [{ email: to }] }], from: { email: "a@example.com" }, subject: "disk", content: [{ type: "text/plain", value: "x".repeat(2000) }] }),
});
const mailgun = (url: string, key: string, to: string) => fetch(`${url}/v3/example.com/messages`, {
  method: "POST", headers: { authorization: `Basic ${btoa(`api:${key}`)}` },
  body: new URLSearchParams({ from: "a@example.com", to, subject: "disk", text: "x" }),
});

/** The reply to MAIL FROM of an authenticated submission. */
const smtpMailFrom = (port: number, user: string, pass: string) => smtpSubmit(port, user, pass, "b@dest.test");

/** One authenticated submission: the reply that ended it (MAIL FROM's or DATA's refusal, or 250). */
function smtpSubmit(port: number, user: string, pass: string, to: string): Promise<{ code?: number; response?: string }> {
  const conn = new SMTPConnection({ host: "127.0.0.1", port, ignoreTLS: true });
  return new Promise((resolve) => {
    conn.on("error", (e: Error & { responseCode?: number; response?: string }) => resolve({ code: e.responseCode, response: e.response }));
    conn.connect(() => conn.login({ user, pass }, (err) => {
      if (err) return resolve({ code: -1, response: String(err) });
      conn.send({ from: "a@example.com", to: [to] }, `From: a@example.com\r\nTo: ${to}\r\nSubject: x\r\n\r\n${"x".repeat(2000)}\r\n`, (e, info) => {
        conn.quit();
        resolve(e ? { code: (e as { responseCode?: number }).responseCode, response: (e as { response?: string }).response } : { code: 250, response: info.response });
      });
    }));
  });
}

describe("disk guard on a real 96 MiB tmpfs", () => {
  test("low disk: 503 with Retry-After from SendGrid and Mailgun, SMTP 452 4.3.1, healthz degraded; resumes with space", async () => {
    if (!mounted) { console.warn(`skipped: ${why}`); return; }
    const dir = join(root, "low");
    const sink = await startSink();
    const s = await start(dir, "40MiB", sink);
    try {
      expect((await sendgrid(s.url, s.key, "before@dest.test")).status).toBe(202);
      const filler = fill(root, 30 * MiB);
      await Bun.sleep(2100); // the guard's reading of free space is a couple of seconds old at most
      const sg = await sendgrid(s.url, s.key, "low@dest.test");
      expect(sg.status).toBe(503);
      expect(Number(sg.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await sg.json() as { errors: { message: string }[] }).errors[0]!.message).toMatch(/storage/);
      const mg = await mailgun(s.url, s.key, "low@dest.test");
      expect(mg.status).toBe(503);
      expect(mg.headers.get("retry-after")).toBeTruthy();
      expect(await mg.json()).toHaveProperty("message");
      const smtp = await smtpMailFrom(s.smtpPort, "app@example.com", s.pass);
      expect(smtp.code).toBe(452);
      expect(smtp.response).toContain("4.3.1 Insufficient system storage");
      const health = await (await fetch(`${s.url}/healthz`)).json() as { status: string; disk: { free_bytes: number; min_free_bytes: number } };
      expect(health.status).toBe("degraded");
      expect(health.disk.min_free_bytes).toBe(40 * MiB);
      expect(health.disk.free_bytes).toBeLessThan(40 * MiB);
      // Mail accepted before the disk ran low is delivered meanwhile.
      await sink.waitFor(1, 20_000);

      rmSync(filler);
      await Bun.sleep(2100);
      expect((await sendgrid(s.url, s.key, "after@dest.test")).status).toBe(202);
      expect((await smtpMailFrom(s.smtpPort, "app@example.com", s.pass)).code).toBe(250);
      expect(((await (await fetch(`${s.url}/healthz`)).json()) as { status: string }).status).toBe("ok");
      await sink.waitFor(3, 20_000);
    } finally {
      await s.app.stop();
      await sink.close();
    }
  }, 60_000);

  test("full disk with min_free = 0 and 20 clients sending: only 503s, nothing accepted lost, files intact", async () => {
    if (!mounted) { console.warn(`skipped: ${why}`); return; }
    const dir = join(root, "full");
    const sink = await startSink();
    const s = await start(dir, "0", sink);
    const statuses = new Map<number, number>();
    const accepted: string[] = [];
    let sending = true;
    const client = async (c: number) => {
      for (let i = 0; sending; i++) {
        const to = `c${c}n${i}@dest.test`;
        const res = await sendgrid(s.url, s.key, to);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 202) accepted.push(to);
        await res.arrayBuffer();
      }
    };
    // Two of the twenty submit over SMTP: 250, or 452 4.3.1 (at MAIL FROM or the end of DATA), never a 5xx.
    const smtpReplies = new Map<number, number>();
    const smtpClient = async (c: number) => {
      for (let i = 0; sending; i++) {
        const to = `s${c}n${i}@dest.test`;
        const r = await smtpSubmit(s.smtpPort, "app@example.com", s.pass, to);
        smtpReplies.set(r.code ?? 0, (smtpReplies.get(r.code ?? 0) ?? 0) + 1);
        if (r.code === 250) accepted.push(to);
        else if (r.code !== 452) console.log("smtp", r);
      }
    };
    const clients = Promise.all([...Array.from({ length: 18 }, (_, c) => client(c)), smtpClient(0), smtpClient(1)]);
    let fillers: string[] = [];
    try {
      await Bun.sleep(300);
      fillers.push(fill(root, 0));
      // Keep the disk full while the clients go on being refused (and grab what SQLite frees).
      for (let i = 0; i < 10; i++) { await Bun.sleep(200); fillers.push(fill(root, 0)); }
      expect(statuses.get(503) ?? 0).toBeGreaterThan(0);
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200); // still up
      for (const f of fillers) rmSync(f);
      fillers = [];
      // Accepting resumes by itself once the guard's pause after a full-disk write failure is over:
      // wait for a 202 and an SMTP 250 after the space came back, then stop the clients (every second
      // they run free is a thousand more mails to wait for at the sink).
      const [http202, smtp250] = [statuses.get(202) ?? 0, smtpReplies.get(250) ?? 0];
      const resumeBy = Date.now() + 20_000;
      while (((statuses.get(202) ?? 0) === http202 || (smtpReplies.get(250) ?? 0) === smtp250) && Date.now() < resumeBy) await Bun.sleep(50);
      sending = false;
      await clients;
      expect(statuses.get(202) ?? 0).toBeGreaterThan(http202);
      expect(smtpReplies.get(250) ?? 0).toBeGreaterThan(smtp250);
      expect([...statuses.keys()].filter((code) => code >= 500 && code !== 503)).toEqual([]);
      expect([...smtpReplies.keys()].filter((code) => code !== 250 && code !== 452)).toEqual([]);
      expect(smtpReplies.get(250) ?? 0).toBeGreaterThan(0);
      expect(statuses.get(202) ?? 0).toBeGreaterThan(0);
      // Accepting resumed by itself, and every 202 is delivered.
      expect((await sendgrid(s.url, s.key, "resumed@dest.test")).status).toBe(202);
      accepted.push("resumed@dest.test");
      const want = new Set(accepted);
      // Generous: attempts whose signing job was lost while the disk was full come back when the
      // job times out (60 s, src/mta/message/workers.ts) and are retried then.
      const deadline = Date.now() + 150_000;
      const got = () => new Set(sink.messages.flatMap((m) => m.to));
      while ([...want].some((t) => !got().has(t)) && Date.now() < deadline) await Bun.sleep(200);
      expect([...want].filter((t) => !got().has(t))).toEqual([]);
      console.log(`full disk: HTTP ${[...statuses].map(([k, v]) => `${v}×${k}`).join(", ")}; SMTP ${[...smtpReplies].map(([k, v]) => `${v}×${k}`).join(", ")}`);
    } finally {
      sending = false;
      for (const f of fillers) rmSync(f, { force: true });
      await clients;
      await s.app.stop();
      await sink.close();
    }
    for (const f of readdirSync(dir).filter((n) => n.endsWith(".sqlite"))) {
      const db = new Database(join(dir, f), { readonly: true });
      expect([f, (db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check]).toEqual([f, "ok"]);
      db.close();
    }
  }, 240_000);
});
