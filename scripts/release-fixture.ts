// Writes an upgrade fixture: a data directory written by an earlier release of postern, kept under
// test/fixtures/releases/<commit>/ so today's code is tested against it (test/upgrade.test.ts).
//   bun scripts/release-fixture.ts <commit>
// The release is extracted from git (git archive, no worktree), installed (bun install) and run
// with its own CLI and server: a domain, an account and a domain key, an SMTP credential,
// suppressions, a webhook (to a local receiver that acknowledges), four messages delivered to a
// local sink; then a clean stop, and its SQLite files are copied with fixture.json (the secrets).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSink } from "../test/helpers/smtp-sink.ts";
import { findPgBin, startPostgres } from "../test/helpers/postgres.ts";

const commit = process.argv[2];
if (!commit) { console.error("usage: bun scripts/release-fixture.ts <commit>"); process.exit(2); }
const ROOT = join(import.meta.dir, "..");
const full = Bun.spawnSync(["git", "rev-parse", "--short=7", commit], { cwd: ROOT }).stdout.toString().trim();
const out = join(ROOT, "test/fixtures/releases", full);
const work = mkdtempSync(join(tmpdir(), `postern-release-${full}-`));

const sh = (cmd: string[], cwd = work) => {
  const r = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
};
sh(["sh", "-c", `git -C ${ROOT} archive ${full} | tar -x -C ${work}`]);
sh(["bun", "install", "--frozen-lockfile"]);

/** Runs the release on `storage` (a [storage] section): what a user of it would have set up and sent. */
async function exercise(name: string, storage: string) {
  const sink = await startSink();
  const hooks: unknown[] = [];
  const receiver = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: async (req) => { hooks.push(await req.text()); return new Response("ok"); } });
  const file = join(work, `${name}.toml`);
  writeFileSync(file, `[server]\nlisten = "127.0.0.1:0"\n[smtp]\nlisten = "127.0.0.1:0"\n[storage]\n${storage}\n[mta]\nhostname = "mta.test"\nretry = ["1s"]\n` +
    `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n[webhooks]\nallow_private = true\n`);
  const cli = (...args: string[]) => sh(["bun", "cli/main.ts", "--config", file, ...args]);

  cli("domain", "add", "example.com");
  cli("domain", "verify", "example.com", "--force");
  const accountKey = JSON.parse(cli("--json", "key", "create", "--account", "--label", "fixture account")).key as string;
  const domainKey = JSON.parse(cli("--json", "key", "create", "--domain", "example.com", "--label", "fixture domain")).key as string;
  cli("credential", "add", "example.com", "app", "--password", "fixture-smtp-password-1");
  cli("suppress", "add", "bounced@dest.test", "--domain", "example.com", "--type", "bounces", "--reason", "fixture");
  cli("suppress", "add", "left@dest.test", "--domain", "example.com", "--type", "unsubscribes");

  const server = Bun.spawn(["bun", "cli/main.ts", "--config", file, "serve"], { cwd: work, stdout: "pipe", stderr: "inherit" });
  const reader = (server.stdout as ReadableStream<Uint8Array>).getReader();
  let text = "";
  let url = "";
  while (!url) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`serve exited: ${text}`);
    text += new TextDecoder().decode(value);
    url = /http (127\.0\.0\.1:\d+)/.exec(text)?.[1] ?? "";
  }
  const basic = (key: string) => `Basic ${btoa(`api:${key}`)}`;
  const hook = await fetch(`http://${url}/v3/domains/example.com/webhooks`, { method: "POST", headers: { authorization: basic(accountKey) },
    body: new URLSearchParams({ id: "delivered", url: `http://127.0.0.1:${receiver.port}/hook` }) });
  if (!hook.ok) throw new Error(`webhook: ${hook.status} ${await hook.text()}`);
  for (let i = 1; i <= 3; i++) {
    const r = await fetch(`http://${url}/v3/mail/send`, { method: "POST", headers: { authorization: `Bearer ${domainKey}`, "content-type": "application/json" },
      body: JSON.stringify({ personalizations: [{ to: [{ email: `r${i}@dest.test` }] }], from: { email: "app@example.com" }, subject: `fixture ${i}`, content: [{ type: "text/plain", value: `message ${i}` }] }) });
    if (r.status !== 202) throw new Error(`send: ${r.status} ${await r.text()}`);
  }
  const mg = await fetch(`http://${url}/v3/example.com/messages`, { method: "POST", headers: { authorization: basic(domainKey) },
    body: new URLSearchParams({ from: "app@example.com", to: "r4@dest.test", subject: "fixture 4", text: "message 4", "o:tag": "fixture" }) });
  if (!mg.ok) throw new Error(`mailgun send: ${mg.status}`);
  await sink.waitFor(4, 30_000);
  for (let i = 0; hooks.length < 4 && i < 200; i++) await Bun.sleep(100);
  server.kill("SIGTERM");
  await server.exited;
  receiver.stop(true);
  await sink.close();
  return { accountKey, domainKey, hooks: hooks.length };
}

const sqlite = await exercise("sqlite", 'data_dir = "./postern-data"');
let postgres: { accountKey: string; domainKey: string; hooks: number } | null = null;
if (existsSync(join(work, "src/store/postgres"))) {
  // The release's PostgreSQL schemas and rows, dumped as SQL (pg_dump) from a throw-away cluster.
  const pg = await startPostgres();
  const url = await pg.createDatabase("release");
  postgres = await exercise("postgres", `engine = "postgres"\npostgres_url = "${url}"`);
  mkdirSync(out, { recursive: true });
  sh([join(findPgBin()!, "pg_dump"), "--no-owner", "--no-privileges", "-f", join(out, "postgres.sql"), url]);
  await pg.stop();
}
mkdirSync(out, { recursive: true });
const data = join(work, "postern-data");
const files = readdirSync(data).filter((n) => n.endsWith(".sqlite"));
for (const n of files) copyFileSync(join(data, n), join(out, n));
writeFileSync(join(out, "fixture.json"), JSON.stringify({
  commit: full, domain: "example.com", account_key: sqlite.accountKey, domain_key: sqlite.domainKey,
  ...(postgres && { postgres: { dump: "postgres.sql", account_key: postgres.accountKey, domain_key: postgres.domainKey } }),
  smtp: { user: "app@example.com", password: "fixture-smtp-password-1" },
  suppressions: [{ address: "bounced@dest.test", type: "bounces" }, { address: "left@dest.test", type: "unsubscribes" }],
  webhook: { id: "delivered" }, delivered: ["r1@dest.test", "r2@dest.test", "r3@dest.test", "r4@dest.test"], files,
}, null, 2) + "\n");
const subject = Bun.spawnSync(["git", "log", "-1", "--format=%ci %s", full], { cwd: ROOT }).stdout.toString().trim();
writeFileSync(join(out, "README.md"), [
  `# Upgrade fixture: release ${full}`, "",
  `Written by release \`${full}\` (${subject.slice(0, 120)}) with \`bun scripts/release-fixture.ts ${full}\`:`,
  "its own CLI and server set up what is below, delivered four messages to a local sink, acknowledged",
  "their webhook posts, and stopped cleanly. `test/e2e/upgrade.test.ts` opens a copy with today's code.", "",
  "| what | value |", "|---|---|",
  "| domain | `example.com` (active) |",
  `| account key (SQLite) | \`${sqlite.accountKey}\` |`,
  `| domain key (SQLite) | \`${sqlite.domainKey}\` |`,
  ...(postgres ? [`| account key (PostgreSQL dump) | \`${postgres.accountKey}\` |`, `| domain key (PostgreSQL dump) | \`${postgres.domainKey}\` |`] : []),
  "| SMTP credential | `app@example.com` / `fixture-smtp-password-1` |",
  "| suppressions | `bounced@dest.test` (bounces), `left@dest.test` (unsubscribes) |",
  "| webhook | Mailgun `delivered`, to a receiver on 127.0.0.1 that is gone |",
  "| messages | r1–r3@dest.test (SendGrid API), r4@dest.test (Mailgun API, tag `fixture`), all delivered |", "",
  `Files: ${files.map((f) => `\`${f}\``).join(", ")} (data_dir)${postgres ? ", `postgres.sql` (`pg_dump` of the release's database: schemas `control`, `zone_us`, `zone_eu`)" : ""}.`,
  "The same secrets are in `fixture.json` for the test. They open nothing but this test data.", "",
].join("\n"));
rmSync(work, { recursive: true, force: true });
console.log(`wrote ${out}: ${files.join(", ")}${postgres ? ", postgres.sql" : ""}; webhook posts acknowledged: ${sqlite.hooks}${postgres ? `, ${postgres.hooks}` : ""}`);
