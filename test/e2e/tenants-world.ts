// The world of the tenant end-to-end suites (contract §14): one real `postern serve` process on a
// port of its own, whose MTA hands every message to a real SMTP sink; the CLI run as separate
// processes on the same config; the three unchanged official clients pointed at it; the audit log
// read both ways (native GET /audit and `postern audit --json`).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@sendgrid/client";
import Mailgun from "mailgun.js";
import NodeFormData from "form-data";
import SparkPost from "sparkpost";
import nodemailer from "nodemailer";
import { createSocket } from "node:dgram";
import dnsPacket from "dns-packet";
import { freePort } from "../helpers/free-port.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";

const MAIN = join(import.meta.dir, "../../cli/main.ts");

export interface AuditEntry { id: string; at: string; actor: { kind: string; id: string }; tenant: number; action: string; target: string; ip: string }

export interface World {
  dir: string;
  base: string;
  smtpPort: number;
  sink: Sink;
  /** The primary's account key (written by the first `serve` to data/primary-key). */
  primaryKey: string;
  /** `postern ARGS` on the server's config; throws on a non-zero exit; `stdin` is piped in. */
  cli(args: string[], stdin?: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts `postern serve` with `extraToml` appended (own sections); `port` fixes the HTTP port (for
 * public_url); `storageToml` adds [storage] lines (the PostgreSQL engine).
 */
export async function startWorld(extraToml = "", port?: number, storageToml = ""): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), "postern-tenants-e2e-"));
  const sink = await startSink();
  const httpPort = port ?? await freePort();
  const config = join(dir, "postern.toml");
  // DNS answers NXDOMAIN at once: mail goes by [mta.routes], domains are verified with --force.
  const dns = await startNxdomainDns();
  writeFileSync(config, `[server]\nlisten = "127.0.0.1:${httpPort}"\npublic_url = "http://127.0.0.1:${httpPort}"\n` +
    `[smtp]\nlisten = "127.0.0.1:0"\n[storage]\ndata_dir = "${join(dir, "data")}"\n${storageToml}` +
    `[mta]\nhostname = "mta.test"\nretry = ["1s"]\ndns_servers = ["127.0.0.1:${dns.port}"]\n` +
    `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n[webhooks]\nallow_private = true\n${extraToml}\n`);
  const server = Bun.spawn(["bun", MAIN, "--config", config, "serve"], { cwd: dir, stdout: "pipe", stderr: process.env.KEEP ? "inherit" : "ignore" });
  const reader = (server.stdout as ReadableStream<Uint8Array>).getReader();
  let out = "";
  while (!/smtp 127\.0\.0\.1:(\d+)/.test(out)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`serve exited: ${out}`);
    out += new TextDecoder().decode(value);
  }
  const smtpPort = Number(/smtp 127\.0\.0\.1:(\d+)/.exec(out)![1]);
  async function cli(args: string[], stdin?: string) {
    const proc = Bun.spawn(["bun", MAIN, "--config", config, ...args], { cwd: dir, stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
      stdout: "pipe", stderr: "pipe" });
    const [code, text, err] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    if (code !== 0) throw new Error(`postern ${args.join(" ")}: ${err}`);
    return text;
  }
  return {
    dir, base: `http://127.0.0.1:${httpPort}`, smtpPort, sink, cli,
    primaryKey: readFileSync(join(dir, "data", "primary-key"), "utf8").trim(),
    async close() {
      server.kill("SIGTERM");
      await server.exited;
      await sink.close();
      dns.stop();
      if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A real DNS server on a free 127.0.0.1 UDP port that answers every question NXDOMAIN (a closed port would make each look-up wait out its timeout). */
async function startNxdomainDns(): Promise<{ port: number; stop(): void }> {
  const sock = createSocket("udp4");
  sock.on("message", (msg, from) => {
    let q: ReturnType<typeof dnsPacket.decode>;
    try { q = dnsPacket.decode(msg); } catch { return; }
    sock.send(dnsPacket.encode({ type: "response", id: q.id, flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | 3, questions: q.questions }), from.port, from.address);
  });
  await new Promise<void>((resolve) => sock.bind(0, "127.0.0.1", resolve));
  return { port: sock.address().port, stop: () => sock.close() };
}

/** @sendgrid/client holding `key`, pointed at the server, impersonating `subuser` when given. */
export function sendgrid(w: World, key: string, subuser = ""): Client {
  const c = new Client();
  const warn = console.warn;
  console.warn = () => {}; // the SDK warns about keys not starting with "SG."
  try { c.setApiKey(key); } finally { console.warn = warn; }
  c.setDefaultRequest("baseUrl", w.base); // after setApiKey, which resets it
  if (subuser) c.setImpersonateSubuser(subuser);
  return c;
}

/** One @sendgrid/client call answered as [status, body], failures included. */
export async function sg(c: Client, method: string, url: string, body?: object): Promise<[number, any]> {
  try {
    const [res, b] = await c.request({ method: method as "GET", url, ...(body ? { body } : {}) });
    return [res.statusCode, b];
  } catch (err) {
    const e = err as { code: number; response?: { body: unknown } };
    return [e.code, e.response?.body];
  }
}

/** mailgun.js holding `key`; `subaccount` set with setSubaccount (X-Mailgun-On-Behalf-Of). */
export function mailgun(w: World, key: string, subaccount?: string) {
  const mg = new Mailgun(NodeFormData as never).client({ username: "api", key, url: w.base });
  if (subaccount !== undefined) mg.setSubaccount(subaccount);
  return mg;
}

/** The sparkpost client holding `key`, with X-MSYS-SUBACCOUNT through its headers option when given. */
export function sparkpost(w: World, key: string, subaccount?: number) {
  return new SparkPost(key, { origin: w.base, ...(subaccount === undefined ? {} : { headers: { "X-MSYS-SUBACCOUNT": String(subaccount) } }) });
}

/** The status of a failed client promise (mailgun.js `status`, sparkpost `statusCode`), with its error body as text. */
export async function refusal(p: Promise<unknown>): Promise<{ status: number; text: string }> {
  try { await p; } catch (e) {
    const err = e as { status?: number; statusCode?: number; details?: string; errors?: unknown; message?: string };
    return { status: err.status ?? err.statusCode ?? 0, text: JSON.stringify([err.details, err.errors, err.message]) };
  }
  throw new Error("expected a refusal");
}

/** One message over SMTP AUTH (nodemailer); resolves to the reply code (250 when accepted). */
export async function smtpSend(w: World, user: string, pass: string, from: string, to: string): Promise<number> {
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: w.smtpPort, secure: false, ignoreTLS: true, auth: { user, pass } });
  try {
    await transport.sendMail({ from, to, subject: `smtp to ${to}`, text: "hello" });
    return 250;
  } catch (e) {
    return (e as { responseCode?: number }).responseCode ?? 0;
  } finally { transport.close(); }
}

/** Waits until the sink holds a message to `rcpt`; returns every message to it. */
export async function delivered(w: World, rcpt: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!w.sink.messages.some((m) => m.to.includes(rcpt))) {
    if (Date.now() > deadline) throw new Error(`nothing delivered to ${rcpt}`);
    await Bun.sleep(25);
  }
  return w.sink.messages.filter((m) => m.to.includes(rcpt));
}

/** Native GET /audit with `key`, every page of `query`. */
export async function auditApi(w: World, key: string, query = ""): Promise<AuditEntry[]> {
  const res = await fetch(`${w.base}/audit?limit=1000${query ? `&${query}` : ""}`, { headers: { "ov-token": key } });
  if (res.status !== 200) throw new Error(`GET /audit: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { items: AuditEntry[] }).items;
}

/** `postern audit --json --limit 1000` with `args`. */
export async function auditCli(w: World, ...args: string[]): Promise<AuditEntry[]> {
  return (JSON.parse(await w.cli(["audit", "--json", "--limit", "1000", ...args])) as { items: AuditEntry[] }).items;
}
