// The bounce class of a recorded event: what every report of a failure (webhook formats, stats)
// reads, so a failure counts under one class wherever it is shown.
import { isDrop, type MessageEvent } from "../model.ts";
import { classOfFailure } from "../suppression-policy.ts";
import type { BounceClass } from "./classes.ts";

/** The event's class; events stored before classification existed are classified from their text. */
export function eventBounceClass(e: MessageEvent): BounceClass {
  if (isDrop(e) || e.description?.startsWith("purged from the queue")) return 25; // our own policy, not the receiver
  return classOfFailure(e);
}
