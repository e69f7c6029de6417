// Nodes sharing PostgreSQL share TLS: the first node orders from Pebble and stores account and
// certificate in the control database; a second node starts with the same certificate without
// ordering; a forced renewal on the second node is validated through the FIRST node's http_listen
// (Pebble calls only that port: the answer comes from the database), and the first node then serves
// the new serial too. Nothing is written to data_dir/tls.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { createApp, type App } from "../../src/app.ts";
import { createLogger } from "../../src/log.ts";
import { startDnsmasq, type DnsmasqServer } from "../helpers/dnsmasq.ts";
import { startPebble, type PebbleServer } from "../helpers/pebble.ts";
import { pgSkipReason, sharedPostgres, type PgCluster } from "../helpers/postgres.ts";
import { freePort } from "../helpers/free-port.ts";
import { httpsPresents } from "../helpers/tls-probe.ts";
import { NAME, healthOn, until } from "../helpers/tls-setup.ts";

let dns: DnsmasqServer;
let pebble: PebbleServer;
let pg: PgCluster;
let pgUrl: string;
const apps: App[] = [];
const nodes: { dir: string; http: number; redirect: number }[] = [];

async function startNode(id: string, redirect: number): Promise<{ app: App; http: number; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), `postern-tlsnode-${id}-`));
  const http = await freePort();
  writeFileSync(join(dir, "postern.toml"), `[server]\nlisten = "127.0.0.1:${http}"\npublic_url = "https://${NAME}"\nnode_id = "${id}"\n` +
    `[storage]\nengine = "postgres"\npostgres_url = "${pgUrl}"\n[smtp]\nlisten = "127.0.0.1:0"\n[mta]\nhostname = "${NAME}"\n` +
    `[tls]\nacme = true\nacme_directory = "${pebble.directory}"\nacme_ca_file = "${pebble.caFile}"\nhttp_listen = "127.0.0.1:${redirect}"\n`);
  const app = await createApp(loadConfig({ file: join(dir, "postern.toml"), env: {} }), { log: createLogger({ level: process.env.POSTERN_LOG ? "debug" : "silent" }) });
  await app.start();
  apps.push(app);
  nodes.push({ dir, http, redirect });
  return { app, http, dir };
}

let a: Awaited<ReturnType<typeof startNode>>;
let b: Awaited<ReturnType<typeof startNode>>;

beforeAll(async () => {
  if (pgSkipReason) return;
  dns = await startDnsmasq([{ type: "A", name: NAME, value: "127.0.0.1" }]);
  const validated = await freePort();
  pebble = await startPebble({ httpPort: validated, dnsServer: dns.server });
  pg = await sharedPostgres();
  pgUrl = await pg.createDatabase("tls");
  a = await startNode("n1", validated);
}, 120_000);

afterAll(async () => {
  for (const app of apps) await app.stop();
  await pebble?.stop();
  await dns?.stop();
  await pg?.stop();
}, 60_000);

test.skipIf(Boolean(pgSkipReason))("the first node orders; a second node serves the same certificate without ordering", async () => {
  await until("node 1 tls", () => healthOn(a.http), (h) => h.tls?.state === "ok");
  const first = (await httpsPresents(a.http, NAME, await pebble.root())).serial;
  b = await startNode("n2", await freePort());
  expect((await httpsPresents(b.http, NAME, await pebble.root())).serial).toBe(first);
  expect(existsSync(join(a.dir, "postern-data", "tls"))).toBe(false);
}, 90_000);

test.skipIf(Boolean(pgSkipReason))("a forced renewal on node 2 is validated through node 1's listener; node 1 then serves it too", async () => {
  const before = (await httpsPresents(b.http, NAME)).serial;
  const result = await b.app.tls!.provider.renew(true);
  expect(result.error).toBeUndefined();
  expect(result.ok).toBe(true);
  expect(result.serial).not.toBe(before);
  expect((await httpsPresents(b.http, NAME)).serial).toBe(result.serial!);
  // Node 1 looks at the shared store every minute; a check now (what its timer does) picks it up.
  await a.app.tls!.provider.renew(false);
  expect((await httpsPresents(a.http, NAME)).serial).toBe(result.serial!);
}, 90_000);

test.skipIf(Boolean(pgSkipReason))("one node orders at a time: node 2 waits for the TLS lock node 1 holds", async () => {
  const order: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((r) => { release = r; });
  const first = a.app.store.tls.withTlsLock(async () => { order.push("n1 in"); await held; order.push("n1 out"); });
  await Bun.sleep(100);
  const second = b.app.store.tls.withTlsLock(async () => { order.push("n2 in"); });
  await Bun.sleep(300);
  expect(order).toEqual(["n1 in"]);
  release();
  await Promise.all([first, second]);
  expect(order).toEqual(["n1 in", "n1 out", "n2 in"]);
});
