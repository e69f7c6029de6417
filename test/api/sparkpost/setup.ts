// Shared set-up of the SparkPost surface tests: a started app (the official client needs a
// socket), every message routed to a local SMTP sink, clients for the account and domain keys,
// and a reader for what the sink received.
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setDefaultTimeout } from "bun:test";
import PostalMime from "postal-mime";
import SparkPost from "sparkpost";
import { makeTestApp, type TestApp, type TestAppOptions } from "../../helpers/app.ts";
import { startSink, type RcptScript, type Sink, type SinkMessage } from "../../helpers/smtp-sink.ts";

// Delivery through the sink shares 2 cores with other suites: be generous, never assert on timings.
setDefaultTimeout(60_000);

export interface SpEnv {
  t: TestApp;
  sink: Sink;
  origin: string;
  templatesDir: string;
  /** Client with the account (primary) key. */
  account: SparkPost;
  /** Client with the domain key of example.com. */
  domain: SparkPost;
  client(key: string): SparkPost;
  /** In-process call (no socket) with the raw `Authorization` header and a JSON body. */
  call(method: string, path: string, key: string, body?: unknown): Promise<Response>;
  /** The first message the sink received for `rcpt` (waits for it). */
  received(rcpt: string): Promise<SinkMessage & { parsed: Awaited<ReturnType<typeof PostalMime.parse>> }>;
  close(): Promise<void>;
}

/** `script` decides the sink's RCPT replies (refusals for bounce tests); `storageToml`: more [storage] lines (the engine). */
export async function startSpEnv(opts: TestAppOptions & { allowPrivate?: boolean; script?: RcptScript; storageToml?: string } = {}): Promise<SpEnv> {
  const sink = await startSink({ script: opts.script });
  const dir = mkdtempSync(join(tmpdir(), "postern-sp-"));
  const templatesDir = join(dir, "templates");
  mkdirSync(templatesDir);
  const toml = `[storage]\ntemplates_dir = "${templatesDir}"\n${opts.storageToml ?? ""}\n[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n[webhooks]\nallow_private = ${opts.allowPrivate ?? true}\n${opts.toml ?? ""}`;
  const t = await makeTestApp({ ...opts, dir, toml });
  const { http } = await t.app.start();
  const origin = `http://${http}`;
  const client = (key: string) => new SparkPost(key, { origin });
  return {
    t, sink, origin, templatesDir, client, account: client(t.accountKey), domain: client(t.domainKey),
    call: (method, path, key, body) => t.app.http(new Request(`http://127.0.0.1${path}`, {
      method, headers: { authorization: key, "content-type": "application/json" },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    })),
    async received(rcpt) {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const m = sink.messages.find((x) => x.to.includes(rcpt));
        if (m) return { ...m, parsed: await PostalMime.parse(m.raw) };
        if (Date.now() > deadline) throw new Error(`no message for ${rcpt}`);
        await sink.waitFor(sink.messages.length + 1, 20_000).catch(() => {});
      }
    },
    async close() { await t.close(); await sink.close(); },
  };
}

export interface ClientFailure {
  statusCode: number;
  message: string;
  errors: { message: string; code: string | number; description?: string; [k: string]: unknown }[];
}

/** The rejection of a client promise, as the client builds it (statusCode, errors). */
export async function failure(p: Promise<unknown>): Promise<ClientFailure> {
  try { await p; } catch (e) { return e as ClientFailure; }
  throw new Error("expected the call to fail");
}

/** A response's JSON body, loosely typed for assertions. */
export const bodyOf = async (res: Response): Promise<any> => res.json();
