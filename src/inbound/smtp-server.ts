// The inbound SMTP listener (smtp-server): DSNs and ARF complaints addressed to our return paths,
// and authenticated submission (a domain's SMTP credentials, or an API key: submission-login.ts). Everything else is refused:
// postern is never an open relay.
import { SMTPServer, type SMTPServerAuthentication, type SMTPServerSession } from "smtp-server";
import { readFileSync } from "node:fs";
import type { Socket } from "node:net";
import PostalMime from "postal-mime";
import type { Domain } from "../core/model.ts";
import type { SendService } from "../core/send.ts";
import type { Logger } from "../log.ts";
import { AppError } from "../core/errors.ts";
import { parseAddress } from "../core/address/address.ts";
import { inspectDataLineEndings } from "./smuggling.ts";
import { answerAfterHalfClose } from "./half-close.ts";
import type { InboundSink } from "./receive/receiver.ts";
import { receiveStream } from "./receive/stream-data.ts";
import { parseReport } from "./reports.ts";
import type { ReportHandler } from "./report-handler.ts";
import type { Recorder } from "../core/recorder.ts";
import type { Throttle } from "../core/throttle.ts";
import { createRateLimiter } from "../core/rate-limit.ts";
import type { UnsubscribeMailboxes } from "./unsubscribe-mail.ts";
import type { ReceiverReportMailbox } from "./reports/mailbox.ts";
import { isDiskFull, type DiskGuard } from "../core/disk-guard.ts";
import { submissionDomain, type Submitter } from "./submission-login.ts";
import { actorOf, withScene } from "../core/actor.ts";

export interface InboundDeps {
  listen: [string, number];
  hostname: string;
  allowInsecureAuth: boolean;
  tls?: { cert: string; key: string };
  /** The shared certificate ([tls]) when `tls` is not given: STARTTLS is offered once it has one. */
  certificates?: { current(): { cert: string; key: string } | null; onChange(fn: (pair: { cert: string; key: string }) => void): void };
  maxMessageBytes: number;
  /** SMTP AUTH (submission-login.ts): the submitter, or null to refuse with 535. */
  authenticate: (user: string, password: string) => Promise<Submitter | null>;
  /** The domain a From address sends for (core/domains.ts forSender), for logins bound to no domain. */
  forSender: (email: string) => Promise<Domain | null>;
  sender: SendService;
  reports: ReportHandler;
  /** Writes a report's outcome (events, status changes and the suppressions they imply). */
  recorder: Recorder;
  /** True for addresses that take reports besides VERP paths: postmaster@/abuse@/fbl@ our domains. */
  isReportMailbox: (address: string) => Promise<boolean>;
  /** The dmarc@/tlsrpt@ mailboxes of the bounce domains: receivers' aggregate and TLS reports. */
  receiverReports?: ReceiverReportMailbox;
  /** Unsubscribe mailboxes (%unsubscribe_email%): mail to one unsubscribes its recipient. */
  unsubscribes?: UnsubscribeMailboxes;
  /** Mail for the account's receiving domains (domain set --inbound, parse hostnames, inbound domains). */
  inbound?: {
    accepts(address: string): Promise<boolean>;
    /** Opens a received message whose body is then streamed in (receive/receiver.ts). */
    open(delivery: { mailFrom: string; rcptTo: string[]; remoteIp: string; heloName: string }): Promise<InboundSink>;
  };
  /** Refuses (451, the text returned) mail for a domain whose zone is served by other nodes. */
  zoneGate?: (address: string) => Promise<string | null>;
  log: Logger;
  /** Failed-AUTH throttling per client IP and per login. */
  throttle: Throttle;
  /** Bytes kept of an unauthenticated message (reports, postmaster@/abuse@); the rest is dropped. */
  maxReportBytes: number;
  /** Connections open at once, and new ones a minute, from one IP. */
  maxConnectionsPerIp: number;
  connectionsPerMinutePerIp: number;
  now: () => number;
  /** The disk guard (core/disk-guard.ts): new mail waits with 452 4.3.1 while it refuses. */
  disk?: Pick<DiskGuard, "mayAccept" | "translate">;
  /** True once the server is stopping: new connections get 421. */
  stopping?: () => boolean;
}

type Session = SMTPServerSession & { user?: unknown };

// RFC 5321 §4.5.3.1.8 asks for at least 100; Postfix's smtpd_recipient_limit and the HTTP APIs' cap
// are 1000. Past it RCPT gets 452 (smtp-server), so one connection cannot grow a recipient list,
// and the lookups and posts each recipient costs, without end.
const MAX_RECIPIENTS = 1000;

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });
// RFC 3463 4.3.1 "mail system full", Postfix's words for the same refusal.
const insufficientStorage = () => smtpError(452, "4.3.1 Insufficient system storage");
const shuttingDown = () => smtpError(421, "4.3.2 service shutting down, try again later");
const isLoopback = (ip: string) => /^(127\.|::1$|::ffff:127\.)/.test(ip);

export function createInboundServer(deps: InboundDeps) {
  const certificates = deps.tls ? undefined : deps.certificates;
  const shared = certificates?.current() ?? null;
  const server = new SMTPServer({
    name: deps.hostname, banner: "postern ESMTP", logger: false, size: deps.maxMessageBytes, maxRecipients: MAX_RECIPIENTS,
    // A client's FIN after a pipelined QUIT does not end our side: its replies are still owed (half-close.ts).
    allowHalfOpen: true,
    authMethods: ["PLAIN", "LOGIN"], authOptional: true,
    // The loopback-only rule below is ours; smtp-server's flag only knows "TLS or not".
    allowInsecureAuth: true,
    disabledCommands: deps.tls || shared ? [] : ["STARTTLS"],
    ...(deps.tls ? { key: readFileSync(deps.tls.key), cert: readFileSync(deps.tls.cert) } : shared ?? {}),
    onAuth: (auth, session, cb) => void onAuth(auth, session).then((user) => cb(null, { user }), (e) => cb(e)),
    onRcptTo: (address, session, cb) => void onRcptTo(address.address, session as Session).then(() => cb(), (e) => cb(e)),
    onSecure: (socket, _session, cb) => { answerAfterHalfClose(socket as Socket); cb(); },
    onMailFrom: (_address, _session, cb) => cb(deps.stopping?.() ? shuttingDown() : deps.disk && !deps.disk.mayAccept() ? insufficientStorage() : undefined),
    onConnect: (session, cb) => {
      if (deps.stopping?.()) return cb(shuttingDown());
      const refusal = admit(session.remoteAddress);
      if (!refusal) admitted.add(session.id);
      cb(refusal);
    },
    onClose: (session) => {
      if (admitted.delete(session.id)) release(session.remoteAddress);
      receiving.get(session.id)?.abort();
      receiving.delete(session.id);
    },
    onData: (stream, session, done) => {
      // A transaction in DATA is finished even while the server stops (busy() tells the stop).
      inData++;
      const cb: typeof done = (...args) => { inData--; done(...args); };
      const s = session as Session;
      const inboundRcpts = [...(receivingRcpts.get(s.envelope)?.values() ?? [])];
      // Mail for a receiving domain streams into the store (bounded memory per connection).
      if (!s.user && inboundRcpts.length && deps.inbound) {
        const closed = new AbortController();
        receiving.set(s.id, closed);
        return void receiveStream(stream, deps.inbound, {
          mailFrom: s.envelope.mailFrom ? s.envelope.mailFrom.address : "", rcptTo: inboundRcpts, remoteIp: s.remoteAddress,
          heloName: s.hostNameAppearsAs ?? "",
        }, { reportBytes: s.envelope.rcptTo.length > inboundRcpts.length ? deps.maxReportBytes : 0, log: deps.log, closed: closed.signal })
          .then(async (r) => (r.reportRaw ? report(r.reportRaw, s) : `2.0.0 received as ${r.ids.join(" ")}`))
          .finally(() => receiving.delete(s.id))
          .then((msg) => cb(null, msg), (e) => cb(storageOr(e)));
      }
      const chunks: Buffer[] = [];
      let kept = 0;
      // A report (no AUTH) keeps only its first bytes; submission keeps the whole message up to the
      // size limit (over it: 552).
      const whole = Boolean((session as Session).user);
      const cap = whole ? Infinity : deps.maxReportBytes;
      const isTooBig = () => (stream as unknown as { sizeExceeded?: boolean }).sizeExceeded === true;
      // smtp-server keeps emitting data past the size limit: stop keeping it.
      stream.on("data", (c: Buffer) => {
        if (isTooBig() || kept >= cap) return;
        chunks.push(kept + c.length > cap ? c.subarray(0, cap - kept) : c);
        kept += Math.min(c.length, cap - kept);
      });
      stream.on("end", () => {
        if (isTooBig() && cap === Infinity) return cb(smtpError(552, "5.3.4 message too big"));
        let raw = Buffer.concat(chunks);
        // A cut report ends at its last whole line, so the cut is not taken for a bare CR or LF.
        if (kept >= cap) raw = raw.subarray(0, raw.lastIndexOf(10) + 1);
        void onData(raw, session as Session).then((msg) => cb(null, msg), (e) => cb(storageOr(e)));
      });
    },
  });

  server.server.on("connection", answerAfterHalfClose);
  let inData = 0;
  // The recipients at receiving domains, by transaction: smtp-server keeps one session object per
  // connection but makes a new envelope for each transaction (after DATA, RSET, a new EHLO), so
  // the next message on the connection does not inherit them. Keyed as smtp-server keys
  // envelope.rcptTo: a repeated RCPT, in any case, replaces the earlier one.
  const receivingRcpts = new WeakMap<object, Map<string, string>>();
  // Messages streaming in, by session: a closed connection aborts its message.
  const receiving = new Map<string, AbortController>();

  // Connections per IP: how many are open (bounded by the IPs connected) and how fast new ones come.
  const open = new Map<string, number>();
  const admitted = new Set<string>();
  const arrivals = createRateLimiter({ rate: deps.connectionsPerMinutePerIp / 60, burst: deps.connectionsPerMinutePerIp, now: deps.now });
  function admit(ip: string): Error | null {
    if ((open.get(ip) ?? 0) >= deps.maxConnectionsPerIp) return smtpError(421, "4.7.0 too many connections from your address");
    if (deps.connectionsPerMinutePerIp > 0 && arrivals.take(ip)) return smtpError(421, "4.7.0 too many new connections from your address, slow down");
    open.set(ip, (open.get(ip) ?? 0) + 1);
    return null;
  }
  function release(ip: string) {
    const n = (open.get(ip) ?? 1) - 1;
    if (n > 0) open.set(ip, n); else open.delete(ip);
  }

  async function onAuth(auth: SMTPServerAuthentication, session: SMTPServerSession) {
    // RFC 4954 §4: plain AUTH only inside TLS, except from loopback unless configured otherwise.
    if (!session.secure && !deps.allowInsecureAuth && !isLoopback(session.remoteAddress)) throw smtpError(538, "5.7.11 encryption required for AUTH");
    const login = (auth.username ?? "").toLowerCase();
    const subjects = [`ip:${session.remoteAddress}`, `login:${login}`];
    if (deps.throttle.lockedFor(subjects) > 0) throw smtpError(454, "4.7.0 too many failed authentications, try again later");
    const submitter = await deps.authenticate(auth.username ?? "", auth.password ?? "");
    if (!submitter) {
      await Bun.sleep(deps.throttle.fail(subjects));
      throw smtpError(535, "5.7.8 authentication credentials invalid");
    }
    deps.throttle.succeed(`login:${login}`);
    return submitter;
  }

  async function onRcptTo(address: string, session: Session) {
    if (session.user) return;
    const elsewhere = deps.zoneGate ? await deps.zoneGate(address) : null;
    if (elsewhere) throw smtpError(451, elsewhere);
    if (deps.reports.isReturnPath(address) || deps.unsubscribes?.isAddress(address) || (await deps.isReportMailbox(address))) return;
    if (await deps.receiverReports?.kindOf(address)) return;
    if (deps.inbound && (await deps.inbound.accepts(address))) {
      const rcpts = receivingRcpts.get(session.envelope) ?? new Map<string, string>();
      receivingRcpts.set(session.envelope, rcpts.set(address.toLowerCase(), address));
      return;
    }
    throw smtpError(554, "5.7.1 relay access denied");
  }

  async function onData(raw: Buffer, session: Session): Promise<string> {
    const finding = inspectDataLineEndings(raw);
    if (finding) throw smtpError(554, `5.5.2 ${finding.reason} refused (RFC 5321 §2.3.8)`);
    const user = session.user as Submitter | undefined;
    if (user) return submit(raw, session, user);
    return report(raw, session);
  }

  async function report(raw: Buffer, session: Session): Promise<string> {
    for (const r of session.envelope.rcptTo) {
      const kind = await deps.receiverReports?.kindOf(r.address);
      if (kind) return deps.receiverReports!.receive(raw, kind, session.envelope.mailFrom ? session.envelope.mailFrom.address : "");
    }
    const unsubscribing = session.envelope.rcptTo.filter((r) => deps.unsubscribes?.isAddress(r.address)).map((r) => r.address);
    if (unsubscribing.length) {
      await deps.unsubscribes!.handle(unsubscribing, { ip: session.remoteAddress, userAgent: "", method: "MAIL" });
      if (unsubscribing.length === session.envelope.rcptTo.length) return "2.0.0 unsubscribed";
    }
    // A valid VERP token vouches for the report whoever sent it (carriers, gateways, forwarders).
    const trusted = session.envelope.rcptTo.some((r) => deps.reports.isReturnPath(r.address));
    const parsed = await parseReport(raw, { trusted });
    if (!parsed) throw smtpError(550, "5.7.1 this address only takes delivery and complaint reports");
    const outcome = await deps.reports.handle(parsed, session.envelope.rcptTo.map((r) => r.address));
    if (outcome) await deps.recorder.record(outcome.zone, outcome);
    else deps.log.info("report for an unknown message", { kind: parsed.kind });
    return "2.0.0 report received";
  }

  async function submit(raw: Buffer, session: Session, who: Submitter): Promise<string> {
    const parsed = await PostalMime.parse(raw, { attachmentEncoding: "arraybuffer" });
    const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
    const from = parseAddress(parsed.from?.address ?? mailFrom);
    try {
      const domain = await submissionDomain(who, from?.email ?? "", deps.forSender);
      // One scene per message, as per HTTP request: a send on behalf of a tenant is audited as the key's, from this client.
      const r = await withScene(() => deps.sender.send(who.principal, {
        domain: domain.name, source: "smtp", from: { email: from?.email ?? "" },
        envelopes: [{ to: session.envelope.rcptTo.map((a) => ({ email: a.address })), subject: parsed.subject ?? "", raw }],
      }), actorOf(who.principal), session.remoteAddress);
      return `2.0.0 queued as ${r.id}`;
    } catch (e) {
      if (e instanceof AppError && e.code === "unavailable") throw e.reason === "storage" ? insufficientStorage() : smtpError(451, `4.3.0 ${e.message}`);
      if (isDiskFull(e)) throw storageOr(e);
      if (e instanceof AppError) throw smtpError(e.code === "too_large" ? 552 : e.code === "invalid" ? 553 : 550, `5.7.1 ${e.message}`);
      throw smtpError(451, "4.3.0 temporary failure, try again");
    }
  }

  /** A write that failed on a full disk is answered 452 4.3.1 (and makes the guard refuse for a while). */
  function storageOr(e: unknown): Error {
    if (!isDiskFull(e)) return e as Error;
    deps.disk?.translate(e);
    return insufficientStorage();
  }
  // A new shared certificate: the next STARTTLS uses it (sessions already in TLS keep theirs).
  certificates?.onChange((pair) => {
    server.updateSecureContext({ key: pair.key, cert: pair.cert });
    const list = server.options.disabledCommands!;
    if (list.includes("STARTTLS")) list.splice(list.indexOf("STARTTLS"), 1);
  });

  // smtp-server reports every client's broken connection (a reset in the middle of TLS, say) as an
  // 'error' on the server: without a listener that would end the whole process.
  server.on("error", (err: Error & { code?: string }) => deps.log.warn("inbound SMTP connection error", { error: err.message, code: err.code }));

  return {
    server,
    listen(): Promise<string> {
      return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(deps.listen[1], deps.listen[0], () => {
          const a = server.server.address() as { address: string; port: number };
          resolve(`${a.address}:${a.port}`);
        });
      });
    },
    /** Transactions in DATA right now (a stop waits for them). */
    busy: () => inData,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
