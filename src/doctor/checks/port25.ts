// port25: can this machine reach a receiver's port 25? Many clouds block it (GCP always, Azure most
// subscriptions, AWS until asked). A greeting is ok; a refusal is an error; silence is unknown.
// The probe's host is looked up through the shared resolver ([mta] dns_servers), like every name.
import { isIP } from "node:net";
import { probeGreeting, type GreetingOutcome } from "../../net/smtp-greeting.ts";
import { addressesOf, causeText } from "../lookup.ts";
import { defineCheck, type MachineSubject, type Verdict } from "../types.ts";

const FIX_BLOCKED = "ask your hosting provider to open outbound port 25 (see docs/deliverability.md), or relay through a smarthost ([mta.routes] \"*\")";

export type Port25Outcome = GreetingOutcome | { kind: "unresolved"; cause: string };

export function judgePort25(o: Port25Outcome, target: string): Verdict {
  const data = { target, ...o };
  if (o.kind === "greeted") {
    return o.code === 220
      ? { severity: "ok", summary: `${target} greeted: ${o.line}`, fix: "", data }
      : { severity: "warn", summary: `${target} answered ${o.code} instead of a 220 greeting: ${o.line}`, fix: "set [doctor] port25_probe to a receiver that accepts connections", data };
  }
  if (o.kind === "unresolved") return { severity: "unknown", summary: `${target} could not be looked up: ${causeText(o.cause)}`, fix: "check [doctor] port25_probe and [mta] dns_servers", data };
  if (o.kind === "refused") return { severity: "error", summary: `outbound connection to ${target} failed: ${o.error}`, fix: FIX_BLOCKED, data };
  return { severity: "unknown", summary: `no ${o.stage === "connect" ? "connection" : "greeting"} from ${target} within ${o.ms} ms (a firewall dropping port 25 looks like this)`,
    fix: FIX_BLOCKED, data };
}

export const port25 = defineCheck<MachineSubject, { o: Port25Outcome; target: string }>({
  id: "port25", over: "machine",
  async look(ctx) {
    const { host, port } = ctx.port25;
    const target = `${host}:${port}`;
    if (isIP(host)) return { o: await probeGreeting(host, port, ctx.probeTimeoutMs, ctx.now), target };
    const found = await addressesOf(ctx.resolver, host);
    if (!found.ok) return { o: { kind: "unresolved", cause: found.cause }, target };
    // IPv4 first: the check asks whether port 25 is open, and most blocks are seen on IPv4 first.
    const address = [...found.records].sort((a, b) => isIP(a) - isIP(b))[0]!;
    return { o: await probeGreeting(address, port, ctx.probeTimeoutMs, ctx.now), target };
  },
  judge: ({ o, target }) => [{ subject: target, ...judgePort25(o, target) }],
});
