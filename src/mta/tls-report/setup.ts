// Wires TLS-RPT as a sender ([mta] tls_reports): the reporter, with postern's own sender as the
// mail path, from [mta] tls_reports_from or tls-reports@ the first active domain.
import type { Config } from "../../config/load.ts";
import type { Store, ZoneStore } from "../../core/store-port.ts";
import type { SendService } from "../../core/send.ts";
import type { Resolver } from "../../dns.ts";
import type { Logger } from "../../log.ts";
import { ACCOUNT_ID } from "../../core/account.ts";
import { createTlsReporter } from "./reporter.ts";
import type { TlsSessionCounter } from "./sessions.ts";

const LAST_DAY = "tls-rpt:last-day";

/** The last day reported: a cursor of this node's zone (the webhook fan-out's compare-and-set facility, with no outbox items). */
export function storedLastDay(zone: Pick<ZoneStore, "cursor" | "enqueueWebhooks">) {
  return { get: () => zone.cursor(LAST_DAY), move: (from: number, to: number) => zone.enqueueWebhooks([], { name: LAST_DAY, from, to }) };
}

export function createTlsReporting(deps: { config: Config; store: Store; resolver: Resolver; now: () => number; log: Logger; sender: SendService;
  counter: TlsSessionCounter | null; hostname: string }) {
  if (!deps.config.mta.tls_reports || !deps.counter) return null;
  const principal = { accountId: ACCOUNT_ID, keyId: "tls-rpt", kind: "account" as const, domain: null, grants: [] };
  async function from(): Promise<string> {
    if (deps.config.mta.tls_reports_from) return deps.config.mta.tls_reports_from;
    const d = (await deps.store.control.listDomains()).find((x) => x.state === "active");
    if (!d) throw new Error("no active sending domain to send TLS-RPT mail from ([mta] tls_reports_from)");
    return `tls-reports@${d.name}`;
  }
  return createTlsReporter({ lastDay: storedLastDay(deps.store.zone(deps.config.server.zone)),
    store: deps.store, resolver: deps.resolver, now: deps.now, log: deps.log, counter: deps.counter, submitter: deps.hostname, from,
    async submit(raw, sender, to) {
      await deps.sender.send(principal, { domain: sender.split("@")[1]!, from: { email: sender }, source: "cli", envelopes: [{ to: [{ email: to }], subject: "", raw }] });
    },
  });
}
