// Bot verdict pushes are outbox items of the bot format: queued durably before the API answers,
// so a push whose target is down when the server stops is still delivered after a restart.
import { afterEach, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startReceiver } from "../helpers/receiver.ts";
import { hmacVerify } from "../../src/webhooks/signing.ts";

const apps: TestApp[] = [];
const receivers: ReturnType<typeof startReceiver>[] = [];
afterEach(async () => { for (const a of apps.splice(0)) await a.close(); receivers.splice(0).forEach((r) => r.stop()); });

const TOML = `[webhooks]\nallow_private = true\nretry = ["300ms"]\n`;

describe("bot verdict pushes", () => {
  test("a push that could not be delivered before a stop is delivered after the restart, signed", async () => {
    const r = startReceiver(503);
    receivers.push(r);
    const first = await makeTestApp({ toml: TOML, keepDir: true });
    await first.app.start();
    await first.app.domains.set("example.com", { botDetection: true });
    const d = (await first.app.domains.get("example.com"))!;
    const push = { batch: { batch_id: "b1", timeQueued: 1 }, events: [{ event_id: "e1", is_bot: true }] };
    const res = await first.app.http(new Request(`http://127.0.0.1/${d.name}/bot`, { method: "POST",
      headers: { "content-type": "application/json", "ov-token": first.domainKey },
      body: JSON.stringify({ events: [{ ip: "40.94.1.1", uas: "x", event_id: "e1" }], webhook_url: r.url }) }), "127.0.0.1");
    expect(res.status).toBe(200);
    await r.waitFor((x) => x.length >= 1); // tried once, refused with 503
    await first.close();
    r.setStatus(200);
    const seen = r.received.length;
    const second = await makeTestApp({ toml: TOML, dir: first.dir });
    apps.push(second);
    await second.app.start();
    const got = await r.waitFor((x) => x.length > seen);
    const body = got.at(-1)!.json as typeof push & { signature: { timestamp: number; token: string; signature: string } };
    expect(body.events[0]).toMatchObject({ event_id: "e1" });
    const key = await second.app.events.keys.forDomain("example.com");
    expect(typeof body.signature.timestamp).toBe("number");
    expect(hmacVerify(key, body.signature)).toBe(true);
  });
});
