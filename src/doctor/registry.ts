// The one list of checks: the CLI, the native API, the console and the scheduler all run these.
// A new check is one file in checks/ plus one line here.
import type { Check } from "./types.ts";
import { port25 } from "./checks/port25.ts";
import { ptr } from "./checks/ptr.ts";
import { ipv6 } from "./checks/ipv6.ts";
import { spfCheck } from "./checks/spf.ts";
import { dkim } from "./checks/dkim.ts";
import { dmarc } from "./checks/dmarc.ts";
import { bounceMx } from "./checks/bounce-mx.ts";
import { tracking } from "./checks/tracking.ts";
import { blocklistDomain, blocklistIp } from "./checks/blocklist.ts";
import { dnssec } from "./checks/dnssec.ts";

export const CHECKS: readonly Check<unknown>[] = [
  port25, ptr, ipv6, dnssec, spfCheck, dkim, dmarc, bounceMx, tracking, blocklistIp, blocklistDomain,
] as Check<unknown>[];

/** The check ids, in order, without repeats (blocklist is two checks, one per zone kind). */
export const CHECK_IDS: readonly string[] = [...new Set(CHECKS.map((c) => c.id))];
