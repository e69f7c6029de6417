// Test wiring for the SendGrid surface: a listening app whose mail all goes to a local SMTP sink,
// a templates dir, and the official @sendgrid/mail and @sendgrid/client pointed at the app.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@sendgrid/client";
import { MailService } from "@sendgrid/mail";
import PostalMime from "postal-mime";
import { makeTestApp, type TestApp, type TestAppOptions } from "../../helpers/app.ts";
import { startSink, type RcptScript, type Sink, type SinkMessage } from "../../helpers/smtp-sink.ts";

export interface SendgridHarness {
  t: TestApp;
  sink: Sink;
  templatesDir: string;
  base: string;
  /** @sendgrid/mail with the domain key, pointed at the app. */
  mail: MailService;
  /** @sendgrid/client with the domain key, pointed at the app. */
  client: Client;
  /** Another pair of clients holding `key`. */
  clientsFor(key: string): { mail: MailService; client: Client };
  close(): Promise<void>;
}

/** The SDK warns about keys not starting with "SG."; postern keys never do. */
function quietly<T>(fn: () => T): T {
  const warn = console.warn;
  console.warn = () => {};
  try { return fn(); } finally { console.warn = warn; }
}

export function pointClient(client: Client, key: string, base: string) {
  quietly(() => client.setApiKey(key));
  // setApiKey resets baseUrl to SendGrid's host: the base must be set after it.
  client.setDefaultRequest("baseUrl", base);
}

/** `script` decides the sink's RCPT replies (refusals for bounce tests). */
export async function startHarness(opts: TestAppOptions & { script?: RcptScript } = {}): Promise<SendgridHarness> {
  const sink = await startSink({ script: opts.script });
  const templatesDir = mkdtempSync(join(tmpdir(), "postern-sg-tpl-"));
  const toml = `[storage]\ntemplates_dir = "${templatesDir}"\n[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n${opts.toml ?? ""}`;
  const t = await makeTestApp({ ...opts, toml });
  const { http } = await t.app.start();
  const base = `http://${http}/`;
  const clientsFor = (key: string) => {
    const client = new Client();
    pointClient(client, key, base);
    const mail = new MailService();
    mail.setClient(client);
    return { mail, client };
  };
  const { mail, client } = clientsFor(t.domainKey);
  return {
    t, sink, templatesDir, base, mail, client, clientsFor,
    async close() {
      await t.close();
      await sink.close();
      rmSync(templatesDir, { recursive: true, force: true });
    },
  };
}

export function writeTemplate(dir: string, name: string, parts: { subject?: string; html?: string; text?: string }) {
  if (parts.subject !== undefined) writeFileSync(join(dir, `${name}.subject`), parts.subject);
  if (parts.html !== undefined) writeFileSync(join(dir, `${name}.html`), parts.html);
  if (parts.text !== undefined) writeFileSync(join(dir, `${name}.txt`), parts.text);
}

/** The messages the sink holds for `rcpt` (RCPT TO), parsed. */
export async function parsedFor(sink: Sink, rcpt: string) {
  const raw = sink.messages.filter((m) => m.to.includes(rcpt));
  return Promise.all(raw.map(async (m) => ({ ...(await parse(m)), envelope: m })));
}

export async function parse(m: SinkMessage) {
  const email = await PostalMime.parse(m.raw);
  const head = m.raw.toString("latin1").split(/\r?\n\r?\n/)[0]!;
  return { email, head };
}

/** Polls until `check` passes (events are written by the scheduler in the background). */
export async function eventually<T>(fn: () => Promise<T>, check: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (check(v) || Date.now() > deadline) return v;
    await Bun.sleep(50);
  }
}

export const b64 = (text: string | Uint8Array) => Buffer.from(text).toString("base64");

export type ClientRequest = Parameters<Client["request"]>[0];
/** One @sendgrid/client request, answered as its status and body. */
export async function requestWith(client: Client, req: ClientRequest): Promise<{ status: number; body: never }> {
  const [res, body] = await client.request(req);
  return { status: res.statusCode, body: body as never };
}
