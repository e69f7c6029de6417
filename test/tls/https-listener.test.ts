// Keep-alive connections and the server's idle timeout (issue #30). A client pool that keeps an idle
// connection longer than the server does can write a request on it at the instant the server closes
// it: the request is lost with ECONNRESET. Made deterministic here with a deliberately slow client:
// its thread is held (Bun.sleepSync) past Bun's default idle close (10 s, on a 4 s tick: at most
// 12 s), so it has not yet seen the server's FIN when it writes its next request on the pooled
// connection. node:http's Agent (what axios and so @sendgrid/client use) does not retry a POST;
// with the default idle timeout this failed with "socket hang up" (ECONNRESET). The listener now
// keeps idle connections KEEP_ALIVE_IDLE_S, longer than common clients' pools.
import { afterAll, expect, test } from "bun:test";
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KEEP_ALIVE_IDLE_S } from "../../src/tls/https-listener.ts";
import { prepareDomainKey, writeConfig } from "../helpers/app.ts";
import { spawnServe } from "../helpers/proc.ts";

const SLOW_CLIENT_MS = 13_000;
const dir = mkdtempSync(join(tmpdir(), "postern-keepalive-"));
let server: Awaited<ReturnType<typeof spawnServe>> | null = null;
afterAll(async () => {
  server?.proc.kill("SIGTERM");
  await server?.proc.exited;
  rmSync(dir, { recursive: true, force: true });
});

/** A config with an active domain and its key, for a `postern serve` of its own (its own process). */
async function setUp() {
  const file = writeConfig(dir);
  return { file, key: await prepareDomainKey(file, "example.com") };
}

test("a slow client's pooled connection, idle past Bun's default idle close, still gets its POST answered", async () => {
  expect(KEEP_ALIVE_IDLE_S * 1000).toBeGreaterThan(SLOW_CLIENT_MS);
  const { file, key } = await setUp();
  server = await spawnServe(file);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send = (i: number) => new Promise<string>((resolve) => {
    const req = http.request(`${server!.url}/v3/mail/send`, { method: "POST", agent,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" } }, (res) => {
      res.resume();
      res.on("end", () => resolve(String(res.statusCode)));
    });
    req.on("error", (e: NodeJS.ErrnoException) => resolve(`${e.code}: ${e.message}`));
    req.end(JSON.stringify({ personalizations: [{ to: [{ email: `user${i}@dest.test` }] }], from: { email: "news@example.com" },
      subject: `Keep-alive ${i}`, content: [{ type: "text/plain", value: "hello" }] }));
  });

  expect(await send(1)).toBe("202");
  Bun.sleepSync(SLOW_CLIENT_MS); // the client's thread is busy: whatever the server sent meanwhile is unread
  expect(await send(2)).toBe("202"); // written on the pooled connection before the client reads its socket again
  agent.destroy();
}, 60_000);
