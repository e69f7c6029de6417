// TOTP enrolment of a signed-in user: a new secret shown as an otpauth:// URI (pending until a code
// made from it is given back), then ten single-use recovery codes shown once and stored hashed.
import { randomBytes } from "node:crypto";
import type { TeamStore } from "./store-port.ts";
import { newTotpSecret, otpauthUri, matchTotp, base32Encode } from "./totp.ts";
import { recoveryHash } from "./users.ts";
import type { AuditWriter } from "../audit.ts";
import { AppError, notFound } from "../errors.ts";

export const RECOVERY_CODES = 10;

/** "abcde-fghij": 50 random bits each, easy to type. */
const recoveryCode = () => {
  const s = base32Encode(randomBytes(7)).slice(0, 10).toLowerCase();
  return `${s.slice(0, 5)}-${s.slice(5)}`;
};

export function createTotpEnrolment({ store, now, audit }: { store: TeamStore; now: () => number; audit?: AuditWriter }) {
  async function user(id: string) {
    const u = await store.getUser({ id });
    if (!u) throw notFound("user not found");
    return u;
  }
  return {
    /** Starts (or restarts) enrolment: a new pending secret and its URI; TOTP already on stays on until confirmed. */
    async start(userId: string): Promise<{ secret: string; uri: string }> {
      const u = await user(userId);
      const secret = newTotpSecret();
      await store.updateUser(u.id, { totpPending: secret }, now());
      return { secret, uri: otpauthUri(secret, u.email) };
    },

    /** Confirms with a code of the pending secret; returns the recovery codes (the only time they are visible). */
    async confirm(userId: string, code: string): Promise<{ recovery_codes: string[] }> {
      const u = await user(userId);
      if (!u.totpPending) throw new AppError("invalid", "start the TOTP enrolment first", { field: "code" });
      const step = matchTotp(u.totpPending, code, now());
      if (step === null) throw new AppError("invalid", "wrong code: check the device's clock and try the next one", { field: "code" });
      const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
      await store.updateUser(u.id, { totpSecret: u.totpPending, totpPending: "", recoveryCodes: codes.map(recoveryHash), totpStep: step }, now());
      await audit?.record("user.totp", u.email);
      return { recovery_codes: codes };
    },
  };
}

export type TotpEnrolment = ReturnType<typeof createTotpEnrolment>;
