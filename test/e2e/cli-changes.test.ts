// A change made with the CLI (another process) holds on the running server's very next request:
// the server first reads (and caches) the domain as it was, the CLI changes it, and the next call
// sees the change. Real processes: `postern serve` and one CLI process per change.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../helpers/free-port.ts";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-cli-changes-"));
const config = join(dir, "postern.toml");
const D = "changes.example.com";
let server: ReturnType<typeof Bun.spawn> | null = null;
let base = "";
let accountKey = "";

/**
 * Runs the CLI while the server keeps reading the domain (so any cache of it is as fresh as it can
 * be when the CLI commits), and returns once the CLI has exited: the caller's next request is the
 * first after the change.
 */
async function cliWhileReading(...args: string[]) {
  const proc = Bun.spawn(["bun", MAIN, "--config", config, ...args], { cwd: dir, stdout: "ignore", stderr: "pipe" });
  let done = false;
  const reading = (async () => {
    while (!done) await (await fetch(`${base}/v3/domains/${D}`, { headers: { authorization: basic(accountKey) } })).arrayBuffer();
  })();
  const code = await proc.exited;
  done = true;
  await reading;
  if (code !== 0) throw new Error(`postern ${args.join(" ")}: ${await new Response(proc.stderr as ReadableStream).text()}`);
}

function cli(...args: string[]) {
  const r = Bun.spawnSync(["bun", MAIN, "--config", config, ...args], { cwd: dir });
  if (r.exitCode !== 0) throw new Error(`postern ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

const basic = (key: string) => `Basic ${btoa(`api:${key}`)}`;
const sparkpostSend = (to: string) => fetch(`${base}/api/v1/transmissions`, { method: "POST",
  headers: { authorization: accountKey, "content-type": "application/json" },
  body: JSON.stringify({ content: { from: `a@${D}`, subject: "s", text: "t" }, recipients: [{ address: to }] }) });
const mailgunSend = (to: string, key = accountKey) => fetch(`${base}/v3/${D}/messages`, { method: "POST",
  headers: { authorization: basic(key) }, body: new URLSearchParams({ from: `a@${D}`, to, subject: "s", text: "t" }) });
const validate = () => fetch(`${base}/${D}/validate?address=someone@${D}`, { headers: { "ov-token": accountKey } });

beforeAll(async () => {
  // DNS answers nothing quickly: the validator and the MTA ask a closed local port.
  writeFileSync(config, `[server]\nlisten = "127.0.0.1:0"\n[smtp]\nlisten = "127.0.0.1:0"\n[storage]\ndata_dir = "${join(dir, "data")}"\n` +
    `[mta]\ndns_servers = ["127.0.0.1:${await freePort()}"]\n`);
  server = Bun.spawn(["bun", MAIN, "--config", config, "serve"], { cwd: dir, stdout: "pipe", stderr: "ignore" });
  const reader = (server.stdout as ReadableStream<Uint8Array>).getReader();
  let out = "";
  while (!/http (\S+?),/.test(out)) out += new TextDecoder().decode((await reader.read()).value);
  base = `http://${/http (\S+?),/.exec(out)![1]}`;
  accountKey = readFileSync(join(dir, "data", "primary-key"), "utf8").trim();
  cli("domain", "add", D);
}, 120_000);
afterAll(async () => { server?.kill("SIGKILL"); await server?.exited; rmSync(dir, { recursive: true, force: true }); });

test("domain verify --force, then a SparkPost transmission at once", async () => {
  const before = await sparkpostSend("x@recipient.example");
  expect(before.status).toBe(400);
  expect(JSON.stringify(await before.json())).toContain("7001");
  await cliWhileReading("domain", "verify", D, "--force");
  expect((await sparkpostSend("x@recipient.example")).status).toBe(200);
}, 30_000);

test("domain set --validation off, then the native validate at once", async () => {
  cli("domain", "set", D, "--validation", "on");
  expect((await validate()).status).toBe(200);
  await cliWhileReading("domain", "set", D, "--validation", "off");
  expect((await validate()).status).toBe(402);
}, 30_000);

test("suppression add, then a send to that address is dropped at once", async () => {
  await cliWhileReading("suppress", "add", "--domain", D, "gone@recipient.example");
  expect((await mailgunSend("gone@recipient.example")).status).toBe(200);
  const events = await fetch(`${base}/v3/${D}/events?event=failed&recipient=gone@recipient.example`, { headers: { authorization: basic(accountKey) } });
  const items = ((await events.json()) as { items: { reason?: string }[] }).items;
  expect(items.length).toBe(1);
}, 30_000);

test("key revoke, then a call with that key at once", async () => {
  const created = JSON.parse(cli("--json", "key", "create", "--domain", D)) as { id: string; key: string };
  expect((await mailgunSend("y@recipient.example", created.key)).status).toBe(200);
  await cliWhileReading("key", "revoke", created.id);
  expect((await mailgunSend("y@recipient.example", created.key)).status).toBe(401);
}, 30_000);

test("domain disable, then a send at once", async () => {
  expect((await mailgunSend("z@recipient.example")).status).toBe(200);
  await cliWhileReading("domain", "disable", D);
  const after = await mailgunSend("z@recipient.example");
  expect(after.status).toBeGreaterThanOrEqual(400);
  expect(after.status).toBeLessThan(500);
}, 30_000);
