// The readings' sources (readings.ts) from the services that already keep the numbers: the stat
// facts (activity.statFacts: live events and retention's rollups), the queue admin's oldest
// waiting message per destination, the certificate provider's expiry and the sending limits.
import type { ActivityService } from "../core/activity.ts";
import type { Domain } from "../core/model.ts";
import type { DestinationQueueAdmin } from "../core/queue-admin.ts";
import { windowStart } from "../core/limits.ts";
import type { AlertSources } from "./readings.ts";

export interface SourceDeps {
  activity: Pick<ActivityService, "statFacts" | "sendsSince" | "counts">;
  now: () => number;
  domains: () => Promise<Domain[]>;
  /** The queue admin (built after the alerts in app.ts; asked only once they run). */
  queue: () => Pick<DestinationQueueAdmin, "byDestination">;
  /** The served certificate's not-after (ISO), null without one. */
  certificate: () => string | null;
  certificateName: string;
}

export function alertSourcesOf(deps: SourceDeps): AlertSources {
  return {
    // Failures and complaints are few and read as facts; acceptances are many (a million scheduled
    // is a million accepted events in the window), so each domain's are counted by the store, and
    // only for a domain with failures or complaints: without them every rate is 0 whatever the
    // volume, and a domain without a reading is under (service.ts). Counting a million events every
    // minute held the loop for seconds (#41).
    async statFacts(q) {
      const few = await deps.activity.statFacts(null, { ...q, types: ["failed", "complained"] });
      const failing = new Set(few.map((f) => f.domain));
      const volumes = await Promise.all((await deps.domains()).filter((d) => failing.has(d.name)).map(async (d) => ({ domain: d.name,
        n: (await deps.activity.counts(d.name, q.begin, q.end)).reduce((sum, c) => sum + (c.type === "accepted" ? c.count : 0), 0) })));
      return [...few, ...volumes.filter((v) => v.n > 0).map((v) => ({ at: q.end, domain: v.domain, tags: [], rcptDomain: "", campaign: "", template: "",
        ipPool: "", key: { type: "accepted" as const }, n: v.n, bytes: 0 }))];
    },
    async oldestQueuedAt(domain) {
      const waiting = await deps.queue().byDestination(domain);
      // Scheduled mail counts from when it is due, not from its accept time.
      return waiting.length ? Math.min(...waiting.map((d) => d.waitingSince)) : null;
    },
    certificate() {
      const notAfter = deps.certificate();
      return notAfter ? { subject: deps.certificateName, notAfter: Date.parse(notAfter) } : null;
    },
    async usage() {
      const limited = (await deps.domains()).filter((d) => d.limitMax > 0);
      return Promise.all(limited.map(async (d) => ({ domain: d.name, max: d.limitMax,
        used: await deps.activity.sendsSince(d.name, windowStart(d.limitWindow, deps.now())) })));
    },
  };
}
