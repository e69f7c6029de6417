// The storage port of tracking hosts (docs/tracking-hosts.md): a domain's host and what the last
// check found live on the domain's row, so every domain read (cached, core/domain-read.ts) carries
// them; these are the two writes.
import type { DomainTracking } from "./model.ts";

export interface TrackingHostStore {
  /** Sets a domain's tracking host ("" = the default `email.<domain>`), pending again; false when there is no such domain. */
  setTrackingHost(name: string, host: string, now: number): Promise<boolean>;
  /** Records what a check found; `updated_at` stays (a check is not an edit). False when there is no such domain. */
  recordTrackingState(name: string, state: DomainTracking["state"], note: string, now: number): Promise<boolean>;
}
