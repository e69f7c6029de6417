// Zones on their own nodes, end to end: two real `postern serve` processes, one serving zone us and
// one serving zone eu, each with its zone data in its own PostgreSQL database and the control data
// (account, keys, domains) in a third one they share. Official clients talk to one node about the
// other zone's domain: the request is proxied, its rows exist only in the owning zone's database,
// one account key works at both, and with the eu node down the us node answers Mailgun's 503.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import Mailgun from "mailgun.js";
import NodeFormData from "form-data";
import { Client } from "@sendgrid/client";
import { MailService } from "@sendgrid/mail";
import nodemailer from "nodemailer";
import SparkPost from "sparkpost";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";
import { pgSkipReason, sharedPostgres, type PgCluster } from "../helpers/postgres.ts";
import { pointClient } from "../api/sendgrid/setup.ts";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-zones-e2e-"));
let pg: PgCluster | null = null;
let sink: Sink;
const db = { control: "", us: "", eu: "" };
const nodes: Record<"us" | "eu", { file: string; base: string; smtp: number; proc: ReturnType<typeof Bun.spawn> | null }> = {
  us: { file: "", base: "", smtp: 0, proc: null }, eu: { file: "", base: "", smtp: 0, proc: null },
};
let accountKey = "";
let euDomainKey = "";

async function freePort(): Promise<number> {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

/** One node's config: its zone's data in its own database, control data shared, the other zone at the other node. */
function nodeConfig(zone: "us" | "eu", port: number, smtpPort: number, other: { zone: string; port: number }): string {
  const file = join(dir, `${zone}.toml`);
  writeFileSync(file, `[server]\nlisten = "127.0.0.1:${port}"\npublic_url = "http://127.0.0.1:${port}"\nzone = "${zone}"\nnode_id = "${zone}-1"\n` +
    `[storage]\nengine = "postgres"\npostgres_url = "${db[zone]}"\ncontrol_url = "${db.control}"\ndata_dir = "${join(dir, zone)}"\n` +
    `[zones]\nnames = ["us", "eu"]\nproxy_timeout = "10s"\n[zones.${other.zone}]\nurl = "http://127.0.0.1:${other.port}"\n` +
    `[smtp]\nlisten = "127.0.0.1:${smtpPort}"\n[mta]\nhostname = "mta.test"\nretry = ["1s"]\n[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n`);
  return file;
}

const cli = (zone: "us" | "eu", ...args: string[]) => {
  const r = Bun.spawnSync(["bun", MAIN, "--config", nodes[zone].file, ...args], { cwd: dir, timeout: 30_000 });
  if (r.exitCode !== 0) throw new Error(`postern ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
};

async function serve(zone: "us" | "eu"): Promise<void> {
  const proc = Bun.spawn(["bun", MAIN, "--config", nodes[zone].file, "serve"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  nodes[zone].proc = proc;
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let text = "";
  while (!/http (\S+?),/.test(text)) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error(`serve ${zone} exited: ${text}${await new Response(proc.stderr as ReadableStream).text()}`);
    text += new TextDecoder().decode(chunk.value);
  }
  void reader.cancel().catch(() => {});
}

async function stop(zone: "us" | "eu"): Promise<void> {
  nodes[zone].proc?.kill("SIGTERM");
  await nodes[zone].proc?.exited;
  nodes[zone].proc = null;
}

beforeAll(async () => {
  if (pgSkipReason) return;
  pg = await sharedPostgres();
  db.control = await pg.createDatabase("control");
  db.us = await pg.createDatabase("zone_us");
  db.eu = await pg.createDatabase("zone_eu");
  sink = await startSink();
  const [usPort, euPort] = [await freePort(), await freePort()];
  [nodes.us.smtp, nodes.eu.smtp] = [await freePort(), await freePort()];
  nodes.us.file = nodeConfig("us", usPort, nodes.us.smtp, { zone: "eu", port: euPort });
  nodes.eu.file = nodeConfig("eu", euPort, nodes.eu.smtp, { zone: "us", port: usPort });
  nodes.us.base = `http://127.0.0.1:${usPort}`;
  nodes.eu.base = `http://127.0.0.1:${euPort}`;
  // Every domain is added at the us node: control data is shared, so --zone eu is allowed there.
  cli("us", "domain", "add", "us.example", "--zone", "us");
  cli("us", "domain", "add", "eu.example", "--zone", "eu");
  cli("us", "domain", "verify", "us.example", "--force");
  cli("us", "domain", "verify", "eu.example", "--force");
  accountKey = JSON.parse(cli("us", "--json", "key", "create", "--account")).key;
  euDomainKey = JSON.parse(cli("us", "--json", "key", "create", "--domain", "eu.example")).key;
  await serve("us");
  await serve("eu");
}, 180_000);

afterAll(async () => {
  await stop("us");
  await stop("eu");
  await sink?.close();
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const mailgun = (zone: "us" | "eu") => new Mailgun(NodeFormData as never).client({ username: "api", key: accountKey, url: nodes[zone].base });

async function count(url: string, table: string): Promise<number | "no schema"> {
  const sql = new SQL(url);
  try {
    const [schema, name] = table.split(".");
    const exists = await sql`SELECT 1 FROM information_schema.tables WHERE table_schema = ${schema} AND table_name = ${name}`;
    if (!exists.length) return "no schema";
    return Number((await sql.unsafe(`SELECT count(*) AS n FROM ${table}`))[0].n);
  } finally { await sql.close(); }
}

async function delivered(subject: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (sink.messages.some((m) => m.raw.toString().includes(`Subject: ${subject}`))) return;
    await Bun.sleep(100);
  }
  throw new Error(`"${subject}" was not delivered`);
}

describe.skipIf(pgSkipReason !== null)("zones on their own nodes (two serve processes, PostgreSQL)", () => {
  test("mail for the eu domain sent to the us node (mailgun.js, @sendgrid/mail) is proxied: its rows exist only in the eu database", async () => {
    const res = await mailgun("us").messages.create("eu.example", { from: "a@eu.example", to: "b@dest.test", subject: "MG via us", text: "proxied" });
    expect(res.message).toBe("Queued. Thank you.");
    const client = new Client();
    pointClient(client, euDomainKey, `${nodes.us.base}/`);
    const mail = new MailService();
    mail.setClient(client);
    const [sg] = await mail.send({ from: "a@eu.example", to: "c@dest.test", subject: "SG via us", text: "proxied too" });
    expect(sg.statusCode).toBe(202);
    await delivered("MG via us");
    await delivered("SG via us");
    expect(await count(db.eu, "zone_eu.messages")).toBe(2);
    expect(await count(db.us, "zone_eu.messages")).toBe("no schema");
    expect(await count(db.us, "zone_us.messages")).toBe(0);
    // Its events, asked at the us node, come from the eu node.
    const events = await mailgun("us").events.get("eu.example", { limit: 50 });
    expect(events.items.map((e: { event: string }) => e.event)).toContain("accepted");
  }, 90_000);

  test("tracking links of an eu message are on the eu node's public_url; one clicked at the us node is recorded in the eu database", async () => {
    cli("us", "domain", "set", "eu.example", "--click-tracking", "on");
    await Bun.sleep(1_100); // the nodes' cached domain read (a second) sees the change
    await mailgun("us").messages.create("eu.example", { from: "a@eu.example", to: "t@dest.test", subject: "tracked via us",
      html: '<p><a href="https://landing.example/page">go</a></p>', "o:tracking-clicks": "yes" });
    await delivered("tracked via us");
    const raw = sink.messages.find((m) => m.raw.toString().includes("Subject: tracked via us"))!.raw.toString().replace(/=\r?\n/g, "");
    const link = new RegExp(`${nodes.eu.base.replace(/[.]/g, "\\.")}/t/c/[A-Za-z0-9_-]+`).exec(raw)?.[0];
    expect(link).toBeDefined();
    const click = await fetch(link!.replace(nodes.eu.base, nodes.us.base), { redirect: "manual" });
    expect(click.status).toBe(302);
    expect(click.headers.get("location")).toBe("https://landing.example/page");
    const sql = new SQL(db.eu);
    try {
      for (let i = 0; i < 100; i++) {
        if (Number((await sql`SELECT count(*) AS n FROM zone_eu.events WHERE type = 'clicked'`)[0].n) > 0) break;
        await Bun.sleep(100);
      }
      expect(Number((await sql`SELECT count(*) AS n FROM zone_eu.events WHERE type = 'clicked'`)[0].n)).toBe(1);
    } finally { await sql.close(); }
  }, 90_000);

  test("a us domain asked at the eu node is answered, and mail for it lands in the us database", async () => {
    const d = await mailgun("eu").domains.get("us.example");
    expect(d.name).toBe("us.example");
    await mailgun("eu").messages.create("us.example", { from: "a@us.example", to: "d@dest.test", subject: "MG via eu", text: "to us" });
    await delivered("MG via eu");
    expect(await count(db.us, "zone_us.messages")).toBe(1);
    expect(await count(db.eu, "zone_us.messages")).toBe("no schema");
  }, 90_000);

  test("one account key works at every node; both list every zone's domains", async () => {
    for (const zone of ["us", "eu"] as const) {
      const list = await mailgun(zone).domains.list();
      expect(list.map((d: { name: string }) => d.name).sort()).toEqual(["eu.example", "us.example"]);
    }
  }, 30_000);

  test("account-wide listings asked at either node show both zones: SendGrid's bounce pages, SparkPost's cursors, Mailgun's stats, SparkPost's account usage", async () => {
    // Six bounces, alternately of the us and the eu domain (the eu ones proxied to the eu node).
    for (let day = 1; day <= 6; day++) {
      await mailgun("us").suppressions.create(day % 2 ? "us.example" : "eu.example", "bounces",
        { address: `b${day}@dest.test`, code: 550, error: "gone", created_at: new Date(Date.UTC(2026, 0, day)).toUTCString() });
    }
    expect(await count(db.eu, "zone_eu.suppressions")).toBe(3);
    expect(await count(db.us, "zone_us.suppressions")).toBe(3);
    for (const zone of ["us", "eu"] as const) {
      const sg = new Client();
      pointClient(sg, accountKey, `${nodes[zone].base}/`);
      const pages: string[][] = [];
      for (let offset = 0; offset < 8; offset += 2) {
        const [, body] = await sg.request({ method: "GET", url: "/v3/suppression/bounces", qs: { limit: 2, offset } });
        pages.push((body as { email: string }[]).map((b) => b.email));
      }
      expect({ zone, pages }).toEqual({ zone, pages: [["b6@dest.test", "b5@dest.test"], ["b4@dest.test", "b3@dest.test"], ["b2@dest.test", "b1@dest.test"], []] });

      const sp = new SparkPost(accountKey, { origin: nodes[zone].base });
      const listed: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 10; i++) {
        const page = await sp.suppressionList.list({ per_page: 4, ...(cursor && { cursor }) }) as any;
        listed.push(...page.results.map((e: { recipient: string; type: string }) => `${e.recipient} ${e.type}`));
        const next = page.links.find((l: { rel: string }) => l.rel === "next");
        if (!next) break;
        cursor = new URL(next.href, "http://x").searchParams.get("cursor")!;
      }
      expect({ zone, listed }).toEqual({ zone, listed: [1, 2, 3, 4, 5, 6].flatMap((d) => [`b${d}@dest.test transactional`, `b${d}@dest.test non_transactional`]) });

      // Injections: three of eu messages, one of a us message (the tests before), newest first, one per page.
      const seenRcpts: string[] = [];
      const times: number[] = [];
      cursor = undefined;
      for (let i = 0; i < 10; i++) {
        const page = await (sp as any).events.searchMessage({ events: "injection", per_page: 1, ...(cursor && { cursor }) }) as any;
        for (const e of page.results) { seenRcpts.push(e.rcpt_to); times.push(Number(e.timestamp)); }
        if (!page.links.next) break;
        cursor = new URL(page.links.next, "http://x").searchParams.get("cursor")!;
      }
      expect({ zone, rcpts: [...seenRcpts].sort() }).toEqual({ zone, rcpts: ["b@dest.test", "c@dest.test", "d@dest.test", "t@dest.test"] });
      expect(times).toEqual([...times].sort((a, b) => b - a));

      const stats = await mailgun(zone).stats.getAccount({ event: ["accepted"], duration: "1d", resolution: "hour" } as never);
      const accepted = stats.stats.reduce((n: number, s: any) => n + (s.accepted?.total ?? 0), 0);
      expect({ zone, accepted }).toEqual({ zone, accepted: 4 });
      const usage = ((await sp.get({ uri: "account", qs: { include: "usage" } })) as any).results.usage;
      expect({ zone, day: usage.day.used, month: usage.month.used }).toEqual({ zone, day: 4, month: 4 });
    }
  }, 90_000);

  test("an account key's write naming no domain is done in every zone: SendGrid deletes bounces of both zones", async () => {
    const sg = new Client();
    pointClient(sg, accountKey, `${nodes.eu.base}/`);
    const [res] = await sg.request({ method: "DELETE", url: "/v3/suppression/bounces", body: { emails: ["b2@dest.test", "b3@dest.test"] } });
    expect(res.statusCode).toBe(204);
    expect(await count(db.eu, "zone_eu.suppressions")).toBe(2);
    expect(await count(db.us, "zone_us.suppressions")).toBe(2);
  }, 30_000);

  test("inbound SMTP for the eu domain: the us node refuses it at RCPT (451, zone eu); the eu node receives it into the eu database only", async () => {
    cli("us", "domain", "set", "eu.example", "--inbound", "on");
    await Bun.sleep(1_100); // the nodes' cached domain read sees the change
    const send = (zone: "us" | "eu") => nodemailer.createTransport({ host: "127.0.0.1", port: nodes[zone].smtp, secure: false, ignoreTLS: true })
      .sendMail({ from: "x@sender.test", to: "sales@eu.example", subject: "inbound for eu", text: "hello eu" });
    const refused = await send("us").then(() => null, (e: { responseCode?: number; response?: string }) => e);
    expect(refused?.responseCode).toBe(451);
    expect(refused?.response).toContain("mail for eu.example is received by the nodes of zone eu");
    const info = await send("eu");
    expect(info.response).toMatch(/^250 .*received as/);
    expect(await count(db.eu, "zone_eu.inbound_messages")).toBe(1);
    expect(await count(db.us, "zone_eu.inbound_messages")).toBe("no schema");
    expect(await count(db.us, "zone_us.inbound_messages")).toBe(0);
  }, 60_000);

  test("with the eu node down, the us node answers the eu domain's requests with Mailgun's 503, account-wide reads with the surface's 503", async () => {
    await stop("eu");
    const err = await mailgun("us").messages.create("eu.example", { from: "a@eu.example", to: "b@dest.test", subject: "while down", text: "x" })
      .then(() => null, (e: { status?: number; details?: string }) => e);
    expect(err?.status).toBe(503);
    expect(err?.details).toMatch(/zone eu, where domain eu\.example lives, cannot be reached/);
    // An account-wide listing would miss zone eu: SendGrid's 503, not a list that looks complete.
    const sg = new Client();
    pointClient(sg, accountKey, `${nodes.us.base}/`);
    const listing = await sg.request({ method: "GET", url: "/v3/suppression/bounces" }).then(() => null, (e: { code?: number; response?: { body?: any } }) => e);
    expect(listing?.code).toBe(503);
    expect(listing?.response?.body?.errors?.[0]?.message).toMatch(/zone eu cannot be reached; this account-wide listing needs every zone/);
    // The account's usage would miss zone eu's sends: SparkPost's 503; the account without usage is still answered.
    const sp = new SparkPost(accountKey, { origin: nodes.us.base });
    const usage = await sp.get({ uri: "account", qs: { include: "usage" } }).then(() => null, (e: { statusCode?: number; errors?: { description?: string }[] }) => e);
    expect(usage?.statusCode).toBe(503);
    expect(usage?.errors?.[0]?.description).toMatch(/zone eu cannot be reached/);
    expect(((await sp.get({ uri: "account" })) as any).results.customer_id).toBeDefined();
    // The us domain is still served.
    const ok = await mailgun("us").messages.create("us.example", { from: "a@us.example", to: "e@dest.test", subject: "us still up", text: "x" });
    expect(ok.message).toBe("Queued. Thank you.");
  }, 60_000);
});
