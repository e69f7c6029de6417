// A running postern for the native API tests: HTTP on a random loopback port, all mail routed to
// a local SMTP sink, a template directory, private webhook targets allowed, and a second domain
// (other.test) with its own sending key for the scoping checks.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import PostalMime, { decodeWords } from "postal-mime";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { startSink, type Sink } from "../../helpers/smtp-sink.ts";
import type { MockZone } from "../../../src/dns.ts";

/** Test bodies are read loosely: the assertions check their shape. */
export type JsonResponse = Omit<Response, "json"> & { json(): Promise<any> };

export interface NativeEnv {
  t: TestApp;
  sink: Sink;
  base: string;
  otherKey: string;
  /** fetch against the server with `ov-token: key` (default: the account key). */
  call(path: string, init?: RequestInit & { key?: string }): Promise<JsonResponse>;
  close(): Promise<void>;
}

export async function startNative(opts: { allowPrivate?: boolean; dns?: Record<string, MockZone>; templates?: Record<string, string>; toml?: string } = {}): Promise<NativeEnv> {
  const sink = await startSink();
  const t = await makeTestApp({
    dns: opts.dns,
    toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n[webhooks]\nallow_private = ${opts.allowPrivate ?? true}\n${opts.toml ?? ""}`,
  });
  const dir = t.app.config.storage.templates_dir;
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(opts.templates ?? {})) writeFileSync(join(dir, file), text);
  await t.app.domains.add("other.test");
  await t.app.domains.verify("other.test", true);
  const otherKey = (await t.app.access.createKey({ kind: "domain", domain: "other.test" })).key;
  const { http } = await t.app.start();
  const base = `http://${http}`;
  return {
    t, sink, base, otherKey,
    call: (path, init = {}) => {
      const { key, headers, ...rest } = init;
      return fetch(`${base}${path}`, { ...rest, headers: { "ov-token": key ?? t.accountKey, ...(headers as Record<string, string> | undefined) } }) as Promise<JsonResponse>;
    },
    async close() {
      await t.close();
      await sink.close();
    },
  };
}

/** A FormData from a list of [name, value] pairs (repeated names allowed). */
export function form(pairs: [string, string | Blob, string?][]): FormData {
  const fd = new FormData();
  for (const [name, value, filename] of pairs) {
    if (typeof value === "string") fd.append(name, value);
    else fd.append(name, value, filename);
  }
  return fd;
}

export async function parseMail(raw: Buffer) {
  return PostalMime.parse(raw);
}

/** A header of a parsed message, RFC 2047-decoded (nodemailer Q-encodes values holding `"`). */
export function headerOf(mail: Awaited<ReturnType<typeof parseMail>>, name: string): string | undefined {
  const value = mail.headers.find((h) => h.key === name.toLowerCase())?.value;
  return value === undefined ? undefined : decodeWords(value);
}
