// Shared set-up of the Mailgun surface tests: a real app on loopback whose MTA routes every
// domain to a local SMTP sink, and the official mailgun.js client (with the form-data package)
// pointed at it, plus a raw in-process `call` for shapes the client hides.
import PostalMime from "postal-mime";
import Mailgun from "mailgun.js";
import NodeFormData from "form-data";
import { makeTestApp, type TestApp, type TestAppOptions } from "../../helpers/app.ts";
import { startSink, type Sink } from "../../helpers/smtp-sink.ts";

export interface MailgunHarness {
  t: TestApp;
  sink: Sink;
  base: string;
  /** The app's inbound SMTP listener, host:port. */
  smtp: string;
  /** mailgun.js with the account key. */
  mg: ReturnType<Mailgun["client"]>;
  /** mailgun.js with a key of the caller's choice. */
  client(key: string): ReturnType<Mailgun["client"]>;
  /** In-process request with HTTP Basic api:<key> (account key by default). */
  call(method: string, path: string, init?: { body?: string | URLSearchParams | FormData; headers?: Record<string, string>; key?: string }): Promise<Response>;
  close(): Promise<void>;
}

/** A response body as loosely typed JSON (the tests assert its shape). */
export const jsonOf = async (res: Response): Promise<any> => res.json();

export async function startHarness(opts: TestAppOptions = {}): Promise<MailgunHarness> {
  const sink = await startSink();
  const t = await makeTestApp({ ...opts, toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n${opts.toml ?? ""}` });
  const { http, smtp } = await t.app.start();
  const base = `http://${http}`;
  const client = (key: string) => new Mailgun(NodeFormData as never).client({ username: "api", key, url: base });
  return {
    t, sink, base, smtp: smtp ?? "", client, mg: client(t.accountKey),
    call(method, path, init = {}) {
      const headers = { authorization: `Basic ${btoa(`api:${init.key ?? t.accountKey}`)}`, ...init.headers };
      return Promise.resolve(t.app.http(new Request(`${base}${path}`, { method, headers, body: init.body })));
    },
    async close() {
      await t.close();
      await sink.close();
    },
  };
}

/** Waits until `check` holds (polling), for state written by the MTA in the background. */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await Bun.sleep(50);
  }
}

/** The first message the sink got for `rcpt`, parsed (waits for it). */
export async function receivedBy(h: MailgunHarness, rcpt: string) {
  await eventually(async () => h.sink.messages.some((m) => m.to.includes(rcpt)));
  return PostalMime.parse(h.sink.messages.find((m) => m.to.includes(rcpt))!.raw);
}

/** The error a client call rejects with (mailgun.js: status and details); throws when it succeeds. */
export async function failure(p: Promise<unknown>): Promise<{ status: number; details: string }> {
  try { await p; } catch (e) { return e as never; }
  throw new Error("expected a failure");
}

/**
 * Sends the three tagged mails the event-filter and tags tests read (f1: newsletter + spring, f2:
 * receipt with its own Message-Id, f3: receipt + spring) and waits until all are delivered;
 * returns each recipient's message id.
 */
export async function sendTaggedMails(h: MailgunHarness): Promise<Record<string, string>> {
  const sent: Record<string, string> = {};
  const mails: [string, string, string[], Record<string, string>][] = [
    ["f1@dest.test", "Spring sale starts", ["newsletter", "spring"], {}],
    ["f2@dest.test", "Your receipt", ["receipt"], { "h:Message-Id": "<custom.f2@app.example.com>" }],
    ["f3@dest.test", "Spring receipt", ["receipt", "spring"], {}],
  ];
  for (const [to, subject, tags, extra] of mails) {
    const res = await h.mg.messages.create("example.com", { from: "Shop <shop@example.com>", to, subject, text: "x", "o:tag": tags, ...extra });
    sent[to] = res.id!;
  }
  await eventually(async () => (await h.t.app.activity.events("example.com", { types: ["delivered"], limit: 10 })).length === 3);
  return sent;
}
