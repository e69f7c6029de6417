// Who may call what on the SendGrid surface. SendGrid's API takes domain keys only (contract §4):
// the declarations for the permission guard (api/permission.ts) and the checks a handler makes
// on the key's domain, refused in SendGrid's words (model.ts MSG).
import type { Domain, Principal } from "../../core/model.ts";
import { AppError } from "../../core/errors.ts";
import { MSG } from "./model.ts";

export const SEND = { right: "mail.send", keys: "domain" } as const;
export const VALIDATE = { right: "validation.use", keys: "domain" } as const;
export const ANY = { right: "any" } as const;

/** Only domain keys send through SendGrid's API (service spec: account keys are refused). */
export function requireDomainKey(principal: Principal): Domain {
  if (principal.kind !== "domain" || !principal.domain) throw new AppError("forbidden", MSG.accessForbidden);
  return principal.domain;
}

/** The key's domain, when email validation is on for it. */
export function requireValidation(principal: Principal): Domain {
  const domain = requireDomainKey(principal);
  if (!domain.validation) throw new AppError("forbidden", `${MSG.accessForbidden}: email validation is not enabled for ${domain.name}`);
  return domain;
}
