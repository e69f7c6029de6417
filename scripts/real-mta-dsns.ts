// Makes DSNs with real MTAs: a private OpenSMTPD, Postfix, Exim or Sendmail instance on loopback relays one message
// per published receiver reply (test/fixtures/bounces/replies.tsv, every section; OUT=dir writes elsewhere)
// to a local SMTP sink that refuses the recipient with that reply; the MTA then writes
// its DSN to the sender, which the sink captures. Each DSN is saved with the category its reply
// should get, as test/fixtures/bounces/mta/<mta>/*.eml and expected.tsv.
//
//   OPENSMTPD=/path/to/smtpd bun scripts/real-mta-dsns.ts opensmtpd
//   bun scripts/real-mta-dsns.ts postfix      (Debian's postfix, isolated as bench/postfix.ts does)
//   bun scripts/real-mta-dsns.ts postfix-expired   (and the 4xx replies, given up after two seconds)
//   EXIM=/path/to/exim4 EXIM_LIBS=/path/to/libs bun scripts/real-mta-dsns.ts exim   (exim-expired: and the 4xx replies)
//   SENDMAIL=/path/to/sendmail SENDMAIL_CF=/path/to/cf SENDMAIL_LIBS=/path/to/libs bun scripts/real-mta-dsns.ts sendmail
//     (sendmail-expired: and the 4xx replies, returned after five seconds)
//
// MULTILINE=1 has the sink send each reply as several lines ("550-5.1.1 ...", "550 5.1.1 ..."), as Gmail does, and
// writes the set as <mta>-multiline; STAGE=data refuses at the end of DATA instead of RCPT TO, STAGE=mail a block at
// MAIL FROM (<mta>-data, <mta>-mail).
//
// REPLIES=published takes the replies of test/fixtures/bounces/published-replies.tsv instead (a thousand, each
// with its category), writes the DSNs to /tmp/postern-dsns-<mta> unless OUT says otherwise, and scores them as the
// inbound listener reads them: every permanent reply in its category, every given-up temporary one never hard.
//
// OpenSMTPD needs its users (Debian build: opensmtpd, opensmtpq), /var/spool/smtpd (mode 711) and /var/lib/opensmtpd/empty, and runs
// as root; it can run beside Postfix (own port, own spool). It was run from Debian's opensmtpd
// 6.8.0p2-4+b4 .deb unpacked with `dpkg -x` (installing it would replace the machine's Postfix).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createTransport } from "nodemailer";
import { startSink } from "../test/helpers/smtp-sink.ts";
import { startBareSink, type Stage } from "./bare-sink.ts";
import { startPostfix } from "../bench/postfix.ts";
import { bounceCategory, isBounceClass } from "../src/core/bounce/index.ts";
import { figures, pct, scoreMessage, VIEWS, type Expected, type Scored } from "../test/helpers/bounce-score.ts";

const ROOT = join(import.meta.dir, "..");
const MTA = ["postfix", "postfix-expired", "exim", "exim-expired", "sendmail", "sendmail-expired"].includes(process.argv[2] ?? "")
  ? process.argv[2]! : "opensmtpd";
const PUBLISHED = process.env.REPLIES === "published";
/** MULTILINE=1: each reply sent as several lines, as the big receivers send theirs (scripts/bare-sink.ts). */
const MULTILINE = Boolean(process.env.MULTILINE);
/** STAGE=data: every reply given at the end of DATA instead of RCPT TO; STAGE=mail: a block's at MAIL FROM. */
const STAGE = process.env.STAGE === "data" || process.env.STAGE === "mail" ? process.env.STAGE : undefined;
const SET = [MTA, ...(MULTILINE ? ["multiline"] : []), ...(STAGE ? [STAGE] : [])].join("-");
const OUT = process.env.OUT ?? (PUBLISHED ? `/tmp/postern-dsns-${SET}` : join(ROOT, "test/fixtures/bounces/mta", SET));
/** Every section of replies.tsv (the big receivers, MTAs, gateways, smaller receivers, carriers); BIG_FOUR=1 for
 *  the Gmail, Microsoft, Yahoo and Apple sections alone, as the first fixtures were made. */
const SECTIONS = process.env.BIG_FOUR ? ["Gmail", "Microsoft", "Yahoo", "Apple"] : ["# ---"];
const PORT = 25251;
/** `postfix-expired`: temporary replies too, with a queue lifetime of seconds, so that Postfix gives up and bounces. */
const TEMPORARY = (process.argv[2] ?? "").endsWith("-expired");

interface Reply { want: string; code: number; text: string }

/** Permanent replies of the chosen sections, with the category each should get. */
function replies(): Reply[] {
  if (PUBLISHED) return publishedReplies();
  const out: Reply[] = [];
  let section = "";
  for (const line of readFileSync(join(ROOT, "test/fixtures/bounces/replies.tsv"), "utf8").split("\n")) {
    if (line.startsWith("# ---")) section = line;
    if (!line || line.startsWith("#") || !SECTIONS.some((s) => section.includes(s))) continue;
    const [cls, text] = line.split("\t");
    const code = Number(/^(\d{3})/.exec(text ?? "")?.[1]);
    // A reply in raw UTF-8 (QQ's "550 收件人空间不足") reaches Postfix's DSN as question marks: SMTP replies are
    // US-ASCII (RFC 5321 §2.4), so such a DSN says nothing but its code, and is not a fixture of the words.
    if (/[^\x00-\x7f]/.test(text ?? "")) continue;
    // A reply whose class is no bounce is still sent (the files keep their numbers) but not written.
    const bounceClass = Number(cls);
    const want = isBounceClass(bounceClass) ? bounceCategory(bounceClass) : "";
    if ((code >= 500 || TEMPORARY) && code >= 400 && text) out.push({ want, code, text: text.replace(/^\d{3}[ -]/, "") });
  }
  return out;
}

/** The published replies, each with its category; a temporary one (kept only for postfix-expired) must not read as hard. */
function publishedReplies(): Reply[] {
  const out: Reply[] = [];
  for (const line of readFileSync(join(ROOT, "test/fixtures/bounces/published-replies.tsv"), "utf8").split("\n")) {
    const [want, text] = line.split("\t");
    const code = Number(/^(\d{3})/.exec(text ?? "")?.[1]);
    if (line.startsWith("#") || !text || /[^\x00-\x7f]/.test(text) || !(code >= 500 || (TEMPORARY && code >= 400))) continue;
    out.push({ want: code < 500 ? "nothard" : want!, code, text: text.replace(/^\d{3}[ -]/, "") });
  }
  return out;
}

/** Reads each DSN as a report reaching a VERP address is read, and prints the figures in the vendors' views. */
async function score(rows: string[]) {
  const scored: Scored[] = [];
  let temporary = 0, hard = 0;
  for (const [file, want, reply] of rows.map((r) => r.split("\t"))) {
    const [s] = await scoreMessage(OUT, { file: file!, split: "tune", reasons: [reply!], categories: [(want === "nothard" ? "soft" : want) as Expected] });
    if (want === "nothard") { temporary++; if (s!.category === "hard" || s!.suppressed) { hard++; console.log(`HARD\t${file}\t${reply}`); } continue; }
    scored.push(s!);
    if (!Object.values(VIEWS).every((ok) => ok(s!))) console.log(`MISS\t${file}\twant ${want}, read ${s!.category}\t${reply}`);
  }
  for (const f of figures(scored)) console.log(`${f.view.padEnd(34)} ${f.right}/${f.n} ${pct(f).toFixed(1)} %`);
  if (temporary) console.log(`temporary replies given up: ${temporary - hard}/${temporary} not hard`);
}

function startOpenSmtpd(sinkPort: number): { stop(): void } {
  mkdirSync("/var/spool/smtpd", { recursive: true, mode: 0o711 });
  mkdirSync("/var/lib/opensmtpd/empty", { recursive: true });
  const conf = `/tmp/postern-opensmtpd-${process.pid}.conf`;
  writeFileSync(conf, [
    `listen on 127.0.0.1 port ${PORT}`,
    `action "out" relay host smtp://127.0.0.1:${sinkPort}`,
    `match from any for any action "out"`,
    `match from local for any action "out"`, ""].join("\n"));
  const smtpd = Bun.spawn([process.env.OPENSMTPD ?? "/usr/sbin/smtpd", "-d", "-f", conf], { stdout: "ignore", stderr: "ignore" });
  return { stop: () => smtpd.kill() };
}

/** Postfix as bench/postfix.ts starts it; for postfix-expired, retrying every second for two seconds at most. */
function startExpiringPostfix(sinkPort: number): { stop(): void } | null {
  const dir = `/tmp/postern-postfix-${process.pid}`;
  const pf = startPostfix(dir, { port: PORT, relayPort: sinkPort, concurrency: 4 });
  if (pf && TEMPORARY) {
    Bun.spawnSync(["/usr/sbin/postconf", "-c", join(dir, "etc"), "-e", "maximal_queue_lifetime=2s", "bounce_queue_lifetime=2s",
      "queue_run_delay=1s", "minimal_backoff_time=1s", "maximal_backoff_time=1s"]);
    Bun.spawnSync(["/usr/sbin/postfix", "-c", join(dir, "etc"), "reload"]);
  }
  return pf;
}

/** Sendmail with a private configuration made from its own m4 macros (SENDMAIL_CF: the sendmail-cf package's cf
 *  directory): everything relayed to the sink as smart host, its own queue, no submission port, no DNS. */
function startSendmail(sinkPort: number): { stop(): void } {
  const dir = `/tmp/postern-sendmail-${process.pid}`;
  mkdirSync(join(dir, "mqueue"), { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, "service.switch"), "hosts files\naliases files\n");
  writeFileSync(join(dir, "aliases"), "postmaster: root\n");
  const define = (name: string, value: string) => "define(`" + name + "', `" + value + "')dnl";
  const mc = ["include(`" + (process.env.SENDMAIL_CF ?? "/usr/share/sendmail/cf") + "/m4/cf.m4')dnl", "OSTYPE(`linux')dnl",
    define("confDOMAIN_NAME", "sendmail.postern.test"), define("SMART_HOST", "[127.0.0.1]"),
    ...["RELAY", "SMTP", "ESMTP"].map((m) => define(`${m}_MAILER_ARGS`, `TCP $h ${sinkPort}`)),
    define("QUEUE_DIR", join(dir, "mqueue")), define("confSERVICE_SWITCH_FILE", join(dir, "service.switch")),
    define("ALIAS_FILE", join(dir, "aliases")), define("confPID_FILE", join(dir, "sendmail.pid")),
    define("confBIND_OPTS", "-DNSRCH -DEFNAMES"), define("confDONT_PROBE_INTERFACES", "True"),
    // sendmail-expired: no delay warning, and a temporary refusal returned after seconds instead of five days.
    ...(TEMPORARY ? [define("confTO_QUEUEWARN", "1d"), define("confTO_QUEUERETURN", "5s"), define("confMIN_QUEUE_AGE", "0")] : []),
    `DAEMON_OPTIONS(\`Port=${PORT}, Addr=127.0.0.1, Name=MTA')dnl`, "FEATURE(`no_default_msa')dnl", "FEATURE(`promiscuous_relay')dnl",
    "FEATURE(`accept_unresolvable_domains')dnl", "FEATURE(`nocanonify')dnl", "MAILER(`local')dnl", "MAILER(`smtp')dnl", ""].join("\n");
  writeFileSync(join(dir, "sendmail.mc"), mc);
  writeFileSync(join(dir, "sendmail.cf"), Bun.spawnSync(["m4", join(dir, "sendmail.mc")]).stdout);
  // Sendmail waits a minute at start for a host name with a dot; in a UTS namespace of its own it has one.
  const bin = process.env.SENDMAIL ?? "/usr/sbin/sendmail";
  const sendmail = Bun.spawn(["unshare", "--uts", "sh", "-c", `hostname sendmail.postern.test && exec ${bin} -C ${join(dir, "sendmail.cf")} -bD -q2s`],
    { stdout: "ignore", stderr: "ignore", env: { ...process.env, LD_LIBRARY_PATH: process.env.SENDMAIL_LIBS ?? "" } });
  return { stop: () => sendmail.kill() };
}

/** Exim with a private configuration (-C, allowed for root): accept from loopback, route all to the sink. */
function startExim(sinkPort: number): { stop(): void } {
  const dir = `/tmp/postern-exim-${process.pid}`;
  mkdirSync(join(dir, "spool"), { recursive: true });
  mkdirSync(join(dir, "log"), { recursive: true });
  Bun.spawnSync(["chown", "-R", "Debian-exim", dir]);
  writeFileSync(join(dir, "exim.conf"), [
    "primary_hostname = exim.postern.test", `exim_path = ${process.env.EXIM ?? "/usr/sbin/exim4"}`, "keep_environment =", `spool_directory = ${dir}/spool`, `log_file_path = ${dir}/log/%slog`,
    "exim_user = Debian-exim", "exim_group = Debian-exim", `daemon_smtp_ports = ${PORT}`, "local_interfaces = 127.0.0.1",
    "acl_smtp_rcpt = acl_check_rcpt", "tls_advertise_hosts =",
    "begin acl", "acl_check_rcpt:", "  accept",
    "begin routers", "smarthost:", "  driver = manualroute", `  route_list = * 127.0.0.1::${sinkPort}`, "  transport = remote_smtp", "  self = send", "  no_more",
    "begin transports", "remote_smtp:", "  driver = smtp", "  allow_localhost", "  hosts_avoid_tls = *",
    // exim-expired: retried every two seconds for six, then given up ("retry timeout exceeded").
    "begin retry", TEMPORARY ? "* * F,6s,2s" : "* * F,1m,1m", ""].join("\n"));
  const exim = Bun.spawn([process.env.EXIM ?? "/usr/sbin/exim4", "-C", join(dir, "exim.conf"), "-bdf", TEMPORARY ? "-q2s" : "-q10s"],
    { stdout: "ignore", stderr: "ignore", env: { ...process.env, LD_LIBRARY_PATH: process.env.EXIM_LIBS ?? "" } });
  return { stop: () => exim.kill() };
}

async function main() {
  const list = replies();
  const refuse = (address: string, stage: Stage = "rcpt") => {
    const n = (stage === "mail" ? /^sender(\d+)@capture\.test$/ : /^r(\d+)@receiver\.test$/).exec(address)?.[1];
    const r = n === undefined ? undefined : list[Number(n)];
    // Only a block is the sender's or IP's to refuse at MAIL FROM; every other reply keeps to RCPT TO there.
    const at = STAGE === "mail" && r?.want !== "block" ? "rcpt" : STAGE ?? "rcpt";
    return r && stage === at ? { code: r.code, message: r.text } : null;
  };
  const sink = MULTILINE || STAGE ? await startBareSink(refuse, MULTILINE) : await startSink({ script: (rcpt) => refuse(rcpt) });
  const mta = MTA.startsWith("postfix") ? startExpiringPostfix(sink.port)
    : MTA.startsWith("exim") ? startExim(sink.port) : MTA.startsWith("sendmail") ? startSendmail(sink.port) : startOpenSmtpd(sink.port);
  if (!mta) throw new Error("postfix is not installed, or not root");
  // Stopped from outside (a timeout, ^C), the MTA goes too: a Postfix left behind would take the next run's messages.
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => { mta.stop(); process.exit(1); });
  try {
    await Bun.sleep(1500);
    const transport = createTransport({ host: "127.0.0.1", port: PORT, secure: false, ignoreTLS: true });
    for (let i = 0; i < list.length; i++) {
      await transport.sendMail({ envelope: { from: `sender${i}@capture.test`, to: [`r${i}@receiver.test`] },
        from: `sender${i}@capture.test`, to: `r${i}@receiver.test`, subject: `reply ${i}`, text: "hello" });
    }
    const got = await sink.waitFor(list.length, PUBLISHED || TEMPORARY ? 600_000 : 60_000);
    mkdirSync(OUT, { recursive: true });
    const rows = [`# file\tcategory\tSMTP reply the receiver sent (from ${PUBLISHED ? "published-replies" : "replies"}.tsv)`];
    for (const m of got) {
      const i = Number(/^sender(\d+)@/.exec(m.to[0] ?? "")?.[1]);
      const r = list[i];
      if (!r?.want) continue;
      const file = `reply-${String(i).padStart(list.length > 1000 ? 4 : list.length > 100 ? 3 : 2, "0")}.eml`;
      writeFileSync(join(OUT, file), m.raw);
      rows.push(`${file}\t${r.want}\t${r.code} ${r.text}`);
    }
    writeFileSync(join(OUT, "expected.tsv"), rows.sort().join("\n") + "\n");
    console.log(`${rows.length - 1} DSNs written to ${OUT}`);
    if (PUBLISHED) await score(rows.slice(1));
  } finally {
    mta.stop();
    await sink.close();
  }
}

await main();
