// The spam check SendGrid's Inbound Parse does when a hostname's spam_check is on: SpamAssassin
// through a configured spamd ([inbound] spamd). It never stands between a message and its post:
// with no spamd configured, a message over spamd_max_size (spamc skips those too), a refused
// connection or no answer in time, the post simply goes without spam_score and spam_report.
import type { Logger } from "../log.ts";
import { parseSpamdAddress, spamdReport, type SpamdVerdict } from "../net/spamd.ts";

export interface SpamCheckConfig { spamd: string; spamd_timeout: number; spamd_max_size: number }

export type SpamCheck = (raw: Uint8Array) => Promise<SpamdVerdict | null>;

export function createSpamCheck(config: SpamCheckConfig, log: Logger): SpamCheck {
  let warnedUnset = false;
  if (!config.spamd) {
    return async () => {
      if (!warnedUnset) log.warn("an Inbound Parse setting has spam_check on but [inbound] spamd is not set: posts go without spam_score");
      warnedUnset = true;
      return null;
    };
  }
  const at = parseSpamdAddress(config.spamd);
  return async (raw) => {
    if (raw.length > config.spamd_max_size) return null;
    try {
      return await spamdReport(raw, { ...at, timeoutMs: config.spamd_timeout });
    } catch (e) {
      log.warn("spam check failed: posting without spam_score", { spamd: config.spamd, error: (e as Error).message });
      return null;
    }
  };
}
