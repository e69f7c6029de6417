// `postern serve` warms its accept path before it listens. A fresh process runs its code in the
// interpreter until the JIT has seen it enough: through bench/mta.ts the first 32 requests took
// 50-60 ms and the accept rate needed about a second to ramp from 1,200 to 4,000 requests/s, most
// of a whole run's requests over 20 ms. So a scratch app (its own SQLite files in a temporary
// directory, no listeners, no MTA) first takes a few hundred sends through every vendor surface,
// in process, the way real requests come: HTTP handler, authentication, parsing, checks, the
// recorder's group commit. The JIT's work is per function, not per app, so the real app starts
// warm. Nothing of the scratch app outlives it; its mail is never delivered.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config/load.ts";
import { createApp, type App } from "../src/app.ts";
import { createLogger } from "../src/log.ts";

/** Rounds of sends (one per surface each), in waves the size of a busy client's concurrency. */
export const WARM_UP_ROUNDS = 200;
const WAVE = 16;
const DOMAIN = "warm-up.invalid";

const body = (i: number) => `Warm-up message ${i}. `.repeat(40);

function requests(key: string, i: number): Request[] {
  const base = "http://127.0.0.1";
  const json = (authz: string) => ({ authorization: authz, "content-type": "application/json" });
  const to = `user${i}@dest${i % 7}.invalid`;
  const form = new FormData();
  for (const [k, v] of Object.entries({ from: `news@${DOMAIN}`, to, subject: `Warm-up ${i}`, text: body(i), html: `<p>${body(i)}</p>` })) form.append(k, v);
  return [
    new Request(`${base}/v3/mail/send`, { method: "POST", headers: json(`Bearer ${key}`), body: JSON.stringify({
      personalizations: [{ to: [{ email: to }] }], from: { email: `news@${DOMAIN}`, name: "Warm-up" }, subject: `Warm-up ${i}`,
      content: [{ type: "text/plain", value: body(i) }, { type: "text/html", value: `<p>${body(i)}</p>` }] }) }),
    new Request(`${base}/api/v1/transmissions`, { method: "POST", headers: json(key), body: JSON.stringify({
      recipients: [{ address: { email: to } }], content: { from: `news@${DOMAIN}`, subject: `Warm-up ${i}`, text: body(i), html: `<p>${body(i)}</p>` } }) }),
    new Request(`${base}/v3/${DOMAIN}/messages`, { method: "POST", headers: { authorization: `Basic ${btoa(`api:${key}`)}` }, body: form }),
  ];
}

/** Sends `rounds` rounds through `app`'s HTTP handler; returns how many were accepted (2xx). */
async function exercise(app: App, key: string, rounds: number): Promise<number> {
  let accepted = 0;
  for (let i = 0; i < rounds; i += WAVE) {
    const wave = Array.from({ length: Math.min(WAVE, rounds - i) }, (_, j) => requests(key, i + j)).flat();
    const answers = await Promise.all(wave.map((req) => app.http(req, "127.0.0.1")));
    for (const res of answers) { if (res.ok) accepted++; await res.arrayBuffer(); }
  }
  return accepted;
}

/** Warms the accept path on a scratch app; best effort: a failure only means a cold start. */
export async function warmUp(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "postern-warm-up-"));
  let app: App | null = null;
  try {
    const file = join(dir, "postern.toml");
    writeFileSync(file, `[server]\nlisten = "127.0.0.1:0"\n[smtp]\nlisten = "127.0.0.1:0"\n[storage]\ndata_dir = ${JSON.stringify(join(dir, "data"))}\n` +
      // A small temporary filesystem must not refuse the scratch sends (its files are deleted at once).
      'min_free = "0"\n');
    app = await createApp(loadConfig({ file, env: {} }), { log: createLogger({ level: "silent" }) });
    await app.domains.add(DOMAIN);
    await app.domains.verify(DOMAIN, true);
    const { key } = await app.access.createKey({ kind: "domain", domain: DOMAIN });
    return await exercise(app, key, WARM_UP_ROUNDS);
  } catch {
    return 0;
  } finally {
    await app?.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
    // The scratch app's objects are garbage now: collect them before the real app allocates.
    Bun.gc(true);
  }
}
