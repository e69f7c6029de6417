// port25: can this machine reach a receiver's port 25? Many clouds block it (GCP always, Azure most
// subscriptions, AWS until asked). A greeting is ok; a refusal is an error; silence is unknown.
import { probeGreeting, type GreetingOutcome } from "../../net/smtp-greeting.ts";
import { defineCheck, type MachineSubject } from "../types.ts";

const FIX_BLOCKED = "ask your hosting provider to open outbound port 25 (see docs/deliverability.md), or relay through a smarthost ([mta.routes] \"*\")";

export function judgePort25(o: GreetingOutcome, target: string) {
  const data = { target, ...o };
  if (o.kind === "greeted") {
    return o.code === 220
      ? { severity: "ok" as const, summary: `${target} greeted: ${o.line}`, fix: "", data }
      : { severity: "warn" as const, summary: `${target} answered ${o.code} instead of a 220 greeting: ${o.line}`, fix: "set [doctor] port25_probe to a receiver that accepts connections", data };
  }
  if (o.kind === "refused") return { severity: "error" as const, summary: `outbound connection to ${target} failed: ${o.error}`, fix: FIX_BLOCKED, data };
  return { severity: "unknown" as const, summary: `no ${o.stage === "connect" ? "connection" : "greeting"} from ${target} within ${o.ms} ms (a firewall dropping port 25 looks like this)`,
    fix: FIX_BLOCKED, data };
}

export const port25 = defineCheck<MachineSubject, { o: GreetingOutcome; target: string }>({
  id: "port25", over: "machine",
  look: async (ctx) => ({ o: await probeGreeting(ctx.port25.host, ctx.port25.port, ctx.probeTimeoutMs, ctx.now), target: `${ctx.port25.host}:${ctx.port25.port}` }),
  judge: ({ o, target }) => [{ subject: target, ...judgePort25(o, target) }],
});
