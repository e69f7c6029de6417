// Who may submit mail over SMTP, and for which domain. Two logins:
// - a domain's SMTP credential, LOGIN@DOMAIN (as Mailgun's): it sends for that domain only;
// - SparkPost's relay login (developers.sparkpost.com/api/smtp): the user `SMTP_Injection` with an
//   API key as the password, acting for the key's own tenant, or `SMTP_Injection:X-MSYS-SUBACCOUNT=N`
//   acting for tenant N under the same rule as the X-MSYS-SUBACCOUNT header (only a primary account
//   key may name another tenant: core/permissions.ts actFor). The key must hold the send right; each
//   message then sends for its From domain, which the send service holds to the acting tenant's.
import type { Domain, Principal } from "../core/model.ts";
import { ACCOUNT_ID } from "../core/account.ts";
import { AppError, notFound } from "../core/errors.ts";

/** An authenticated SMTP session's sender: the principal, and the domain a credential is bound to (null: each message's From domain). */
export interface Submitter {
  principal: Principal;
  domain: Domain | null;
}

export interface SubmissionLoginDeps {
  /** An SMTP credential's domain (core/access.ts authenticateSmtp). */
  credential: (user: string, password: string) => Promise<Domain | null>;
  /** An API key acting for the tenant `ref` names (null: its own); null or a throw refuses it (core/access.ts authenticate). */
  key: (presented: string, ask: { ref: string | null; readAllWithout: boolean }) => Promise<Principal | null>;
  /** True when the key's grants give the send right (the grant vocabularies are the surfaces'). */
  maySend: (p: Principal) => boolean;
}

const INJECTION = /^SMTP_Injection(?::X-MSYS-SUBACCOUNT=(\d{1,9}))?$/i;

/** (user, password) → the submitter, or null for a login to refuse (535). */
export function createSubmissionLogin(deps: SubmissionLoginDeps) {
  return async (user: string, password: string): Promise<Submitter | null> => {
    const m = INJECTION.exec(user.trim());
    if (!m) {
      const domain = await deps.credential(user, password);
      return domain ? { principal: { accountId: ACCOUNT_ID, keyId: "smtp", kind: "domain", domain, grants: [] }, domain } : null;
    }
    // A key naming a tenant it may not act for is refused like a wrong password: nothing of that tenant is told.
    const principal = await deps.key(password, { ref: m[1] ?? null, readAllWithout: false }).catch((e: unknown) => {
      if (e instanceof AppError) return null;
      throw e;
    });
    return principal && deps.maySend(principal) ? { principal, domain: null } : null;
  };
}

/**
 * The domain a message of `who` sends for: a credential's own, else the one its From address
 * belongs to (the send service refuses it unless it is the acting tenant's).
 */
export async function submissionDomain(who: Submitter, fromEmail: string, forSender: (email: string) => Promise<Domain | null>): Promise<Domain> {
  if (who.domain) return who.domain;
  const domain = await forSender(fromEmail);
  if (!domain) throw notFound(`no sending domain for ${fromEmail || "an empty From"}`);
  return domain;
}
