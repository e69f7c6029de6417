// The `<used>` half of a domain's `limit`: messages accepted in the domain's current limit window,
// counted exactly as core/send.ts enforces the limit.
import type { Domain } from "../../core/model.ts";
import type { ActivityService } from "../../core/activity.ts";
import { windowStart } from "../../core/limits.ts";

export async function countSendsInWindow(activity: ActivityService, domain: Domain, now: number): Promise<number> {
  return activity.sendsSince(domain.name, windowStart(domain.limitWindow, now));
}
