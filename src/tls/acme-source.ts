// Certificates from an ACME CA: the one kept in the certificate store is used while it covers the
// names and more than a third of its lifetime remains; then a new one is ordered.
import type { CertSource } from "./provider.ts";
import type { CertStore } from "./cert-store.ts";
import { certInfo, covers, keyMatches, renewAt, type CertInfo } from "./cert-info.ts";
import { CaUnreachable, describeAcmeError, newAccountKey, orderCertificate, type AcmeSettings } from "./acme-order.ts";
import type { ChallengeAnswers } from "./challenges.ts";

const HOUR = 3_600_000;

/** The CA could not be reached at all (as opposed to refusing): cheap for it, so retried sooner. */
const unreachable = (e: unknown) => e instanceof CaUnreachable || /ECONNREFUSED|ENOTFOUND|ETIMEDOUT|ECONNRESET|EAI_AGAIN|socket hang up/i
  .test(`${(e as { code?: string })?.code ?? ""} ${(e as Error)?.message ?? e}`);

export function createAcmeSource(deps: { settings: AcmeSettings; names: string[]; store: CertStore; challenges: ChallengeAnswers }): CertSource {
  const { store } = deps;
  const isDue = (info: CertInfo, now: number) => now >= renewAt(info) || !covers(info, deps.names);
  async function accountKey(): Promise<string> {
    const kept = await store.loadAccountKey();
    if (kept) return kept;
    const pem = await newAccountKey();
    await store.saveAccountKey(pem);
    return pem;
  }
  return {
    async load() {
      const pair = await store.loadCert();
      // A key that is not the certificate's (a crash between the two writes): order a new one.
      return pair && keyMatches(pair) ? pair : null;
    },
    due: isDue,
    // Under the store's lock: a node that waited for it finds the certificate the holder just
    // stored (another serial than its own, not due) and takes that instead of ordering again.
    obtain: ({ current, now }) => store.exclusive(async () => {
      const stored = await store.loadCert();
      if (stored && keyMatches(stored)) {
        const info = certInfo(stored.cert);
        if (info.serial !== current?.serial && !isDue(info, now)) return stored;
      }
      const pair = await orderCertificate(deps.settings, await accountKey(), deps.names, deps.challenges);
      await store.saveCert(pair);
      return pair;
    }),
    // Nodes sharing the store look every minute, so a certificate one node obtained serves on all.
    checkEveryMs: store.shared ? 60_000 : HOUR,
    // Unreachable: every 5, 10, 20, then 30 s (a CA coming back is used within half a minute).
    // Refused (validation, rate limits): 1, 2, 4 … minutes, at most hourly, to stay inside the CA's limits.
    retryDelayMs: (failures, error) => unreachable(error) ? Math.min(30_000, 5_000 * 2 ** (failures - 1))
      : Math.min(HOUR, 60_000 * 2 ** (failures - 1)),
    describe: describeAcmeError,
  };
}
