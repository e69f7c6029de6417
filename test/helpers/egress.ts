// Egress set-up shared by the surface tests: two loopback sources in two pools (the bulk one
// warming up since today), and the peer address a sink saw.
import type { Sink, SinkMessage } from "./smtp-sink.ts";
import type { App } from "../../src/app.ts";

export const today = () => new Date().toISOString().slice(0, 10);

export const egressToml = () => `[mta.egress.ip2]\nsource_address = "127.0.0.2"\nehlo = "mta2.test"\n`
  + `[mta.egress.ip3]\nsource_address = "127.0.0.3"\nehlo = "mta3.test"\nwarmup_start = "${today()}"\n`
  + `[mta.pools.default]\nsources = ["ip2"]\n[mta.pools.bulk]\nsources = ["ip3"]\n`;

/** The client address of a received message, without the IPv4-mapped prefix. */
export const peerOf = (m: SinkMessage) => (m.session.remoteAddress ?? "").replace(/^::ffff:/, "");

/** The peer address of the first message to `rcpt` (waits for it). */
export async function peerFor(sink: Sink, rcpt: string, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const m = sink.messages.find((x) => x.to.includes(rcpt));
    if (m) return peerOf(m);
    if (Date.now() > deadline) throw new Error(`no message for ${rcpt}`);
    await Bun.sleep(50);
  }
}

/** Waits until `rcpt` has a delivered event in example.com (written after the sink answered). */
export async function deliveredTo(app: App, rcpt: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await app.activity.events("example.com", { types: ["delivered"], recipient: rcpt, limit: 1 })).length === 0) {
    if (Date.now() > deadline) throw new Error(`no delivered event for ${rcpt}`);
    await Bun.sleep(50);
  }
}
