// The list and the MXes of bench/shaped.ts: who gets mail (a provider-shaped mix, or 20 plain
// domains beside a stuck provider), which loopback address plays each destination's MX, the routes
// that send both MTAs there, and the sink process (bench/mx-sink.ts) with its counters.
import type { MxSpec } from "./mx-sink.ts";

export const SMALL_DOMAINS = 200;

/** 45 % gmail.com, 20 % outlook.com, 10 % yahoo.com, 25 % over 200 small domains (the shares). */
export function providerMix(i: number): string {
  const slot = i % 100;
  if (slot < 45) return `u${i}@gmail.com`;
  if (slot < 65) return `u${i}@outlook.com`;
  if (slot < 75) return `u${i}@yahoo.com`;
  return `u${i}@small${(i * 7) % SMALL_DOMAINS}.test`;
}

/** The --stuck run's load: 20 other domains, all behind the "small" MX. */
export const twentyDomains = (i: number) => `u${i}@dest${i % 20}.test`;

export const PROBE_DOMAIN = "probe.test";

/** Each destination's MX on its own loopback address (127.0.0.x: nothing else listens there). */
export function mxSpecs(opts: { delayMs: number; stuck: boolean; throttle: boolean }): MxSpec[] {
  const d = opts.delayMs || undefined;
  return [
    { name: "gmail", host: "127.0.0.11", delayMs: d, neverGreet: opts.stuck || undefined },
    { name: "outlook", host: "127.0.0.12", delayMs: d },
    // Yahoo-like: answers 421 beyond 4 connections (--throttle-421).
    { name: "yahoo", host: "127.0.0.13", delayMs: d, maxConnections: opts.throttle ? 4 : undefined },
    { name: "small", host: "127.0.0.14", delayMs: d },
    { name: "probe", host: "127.0.0.15" },
  ];
}

/** Recipient domain → MX name, for every domain the runs use. */
export function domainsByMx(): Map<string, string> {
  const m = new Map<string, string>([["gmail.com", "gmail"], ["outlook.com", "outlook"], ["yahoo.com", "yahoo"], [PROBE_DOMAIN, "probe"]]);
  for (let i = 0; i < SMALL_DOMAINS; i++) m.set(`small${i}.test`, "small");
  for (let i = 0; i < 20; i++) m.set(`dest${i}.test`, "small");
  return m;
}

export interface MxSink {
  ports: Map<string, number>;
  hosts: Map<string, string>;
  received(name?: string): number;
  maxConnections: Record<string, number>;
  refused: Record<string, number>;
  /** When probe-<i> was accepted (epoch ms). */
  probes: Map<number, number>;
  /** Messages accepted, those carrying a DKIM-Signature, and the signatures by "<d=> <a=>". */
  dkim: { messages: number; signed: number; signatures: Record<string, number> };
  /** Per MX: the client's ms between a message's final reply and its next MAIL on the connection (mx-sink.ts). */
  between: Record<string, { n: number; mean: number; p50: number; p95: number } | null>;
  /** Per MX: connections opened in all. */
  opened: Record<string, number>;
  stop(): void;
}

/** `sampleDir`: where the sink writes sample messages whole (bench/dkim-check.ts verifies them). */
export async function startMxSink(specs: MxSpec[], sampleDir?: string): Promise<MxSink> {
  const proc = Bun.spawn(["bun", new URL("./mx-sink.ts", import.meta.url).pathname, JSON.stringify(specs), ...(sampleDir ? [sampleDir] : [])],
    { stdout: "pipe", stderr: "inherit" });
  let counts: Record<string, number> = {};
  const sink: MxSink = {
    ports: new Map(), hosts: new Map(specs.map((s) => [s.name, s.host])), maxConnections: {}, refused: {}, probes: new Map(),
    dkim: { messages: 0, signed: 0, signatures: {} }, between: {}, opened: {},
    received: (name) => (name ? counts[name] ?? 0 : Object.values(counts).reduce((a, b) => a + b, 0)),
    stop: () => proc.kill(),
  };
  await new Promise<void>((resolve) => {
    void (async () => {
      let buf = "";
      for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
        buf += new TextDecoder().decode(chunk);
        for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          const [word, a, b] = line.split(" ");
          if (word === "listening") { sink.ports.set(a!, Number(b)); if (sink.ports.size === specs.length) resolve(); }
          else if (word === "probe") sink.probes.set(Number(a), Number(b));
          else if (line.startsWith("{")) {
            const s = JSON.parse(line) as { received: Record<string, number>; maxConnections: Record<string, number>; refused: Record<string, number> }
              & MxSink["dkim"] & Pick<MxSink, "between" | "opened">;
            counts = s.received; Object.assign(sink.maxConnections, s.maxConnections); Object.assign(sink.refused, s.refused);
            sink.dkim = { messages: s.messages, signed: s.signed, signatures: s.signatures };
            sink.between = s.between; sink.opened = s.opened;
          }
        }
      }
    })();
  });
  return sink;
}

/** "host:port" of each domain's MX: postern's [mta.routes] and Postfix's transport map say the same. */
export function routesOf(sink: MxSink): [string, string][] {
  return [...domainsByMx()].map(([domain, mx]) => [domain, `${sink.hosts.get(mx)}:${sink.ports.get(mx)}`]);
}

/**
 * Schedules `m` recipients of the provider mix (local parts `+<tag><i>`, so on the live mix's
 * domains) through SendGrid's send_at `sendAt` (Unix seconds), 50 a request from `clients`
 * clients: the held-out depth shapes (#41). Returns the seconds the accept took.
 */
export async function scheduleOnMix(base: string, key: string, m: number, opts: { sendAt: number; tag: string; subject: string; clients: number; text: string }): Promise<number> {
  const BATCH = 50;
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: opts.clients }, async () => {
    while (next < m) {
      const from = next;
      next += BATCH;
      const personalizations = Array.from({ length: Math.min(BATCH, m - from) }, (_, i) => ({ to: [{ email: providerMix(from + i).replace("@", `+${opts.tag}${from + i}@`) }] }));
      const res = await fetch(`${base}/v3/mail/send`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ personalizations, send_at: opts.sendAt, from: { email: "news@bench.example" }, subject: opts.subject,
          content: [{ type: "text/plain", value: opts.text }] }) });
      if (res.status !== 202) throw new Error(`scheduling: ${res.status} ${await res.text()}`);
    }
  }));
  return (performance.now() - t0) / 1000;
}
