// What the console surface needs: every service the API surfaces use, plus sessions and the queue
// administration. Nothing here is console-specific business logic.
import type { SurfaceDeps } from "../deps.ts";
import type { SessionService } from "../../core/sessions.ts";
import type { DestinationQueueAdmin } from "../../core/queue-admin.ts";
import type { Throttle } from "../../core/throttle.ts";
import type { Team } from "../../core/team/index.ts";

export interface ConsoleDeps extends SurfaceDeps {
  sessions: SessionService;
  /** Console users, TOTP enrolment and invitations (core/team). */
  team: Team;
  queue: DestinationQueueAdmin;
  /** Wrong keys per client IP, shared with the API surfaces: sign-in is no way around the lockout. */
  keyThrottle?: Throttle;
  /** The certificate's state for the Queue page (src/tls); absent without [tls]. */
  tlsHealth?: () => { state: string; error?: string; not_after?: string };
}
