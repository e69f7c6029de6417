// A running postern for the console API tests: HTTP on a random loopback port, mail routed to a
// local SMTP sink, private webhook targets allowed, and a second domain (other.test) with its own
// key for the scoping checks. `signIn` returns a client that keeps the session cookie and CSRF token.
import { afterAll, beforeAll } from "bun:test";
import { makeTestApp, type TestApp, type TestAppOptions } from "../../helpers/app.ts";
import { startSink, type Sink, type SinkOptions } from "../../helpers/smtp-sink.ts";

export type JsonResponse = Omit<Response, "json"> & { json(): Promise<any> };

export interface ConsoleClient {
  cookie: string;
  csrf: string;
  session: any;
  /** A console API call with the session cookie, and the CSRF token on writes (unless `csrf: false`). */
  call(method: string, path: string, body?: unknown, opts?: { csrf?: boolean; headers?: Record<string, string> }): Promise<JsonResponse>;
}

export interface ConsoleEnv {
  t: TestApp;
  sink: Sink;
  base: string;
  otherKey: string;
  signIn(key: string): Promise<ConsoleClient>;
  /** Signs in with any sign-in body (a console user's email, password and code). */
  signInWith(body: Record<string, string>): Promise<ConsoleClient>;
  close(): Promise<void>;
}

export async function startConsole(opts: Partial<TestAppOptions> & { sink?: SinkOptions } = {}): Promise<ConsoleEnv> {
  const sink = await startSink(opts.sink);
  const t = await makeTestApp({ ...opts, toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n[webhooks]\nallow_private = true\n${opts.toml ?? ""}` });
  await t.app.domains.add("other.test");
  await t.app.domains.verify("other.test", true);
  const otherKey = (await t.app.access.createKey({ kind: "domain", domain: "other.test" })).key;
  const { http } = await t.app.start();
  const base = `http://${http}`;
  const signIn = (key: string) => signInWith({ key });
  async function signInWith(body: Record<string, string>): Promise<ConsoleClient> {
    const res = await fetch(`${base}/ui/api/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
    const session = (await res.json()) as { csrf: string };
    const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0]!;
    const client: ConsoleClient = {
      cookie, csrf: session.csrf, session,
      call: (method, path, body, o = {}) => fetch(`${base}/ui/api${path}`, {
        method, body: body === undefined ? undefined : JSON.stringify(body),
        headers: { cookie: client.cookie, ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...(method !== "GET" && o.csrf !== false ? { "x-csrf-token": client.csrf } : {}), ...(o.headers ?? {}) },
      }) as Promise<JsonResponse>,
    };
    return client;
  }
  return { t, sink, base, otherKey, signIn, signInWith, async close() { await t.close(); await sink.close(); } };
}

/**
 * The test file's console: started before its tests and signed in with the account or the domain
 * key, closed after them. `env` and `client` are read inside the tests (set by beforeAll).
 */
export function consoleSignedIn(key: "accountKey" | "domainKey"): { readonly env: ConsoleEnv; readonly client: ConsoleClient } {
  let env: ConsoleEnv | null = null;
  let client: ConsoleClient | null = null;
  beforeAll(async () => {
    env = await startConsole();
    client = await env.signIn(env.t[key]);
  });
  afterAll(async () => { await env?.close(); });
  return { get env() { return env!; }, get client() { return client!; } };
}
