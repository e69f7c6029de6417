// Which key may call what on the Mailgun surface. As on Mailgun, a domain (sending) key may only
// send messages for its own domain; every other endpoint needs the account (primary) key.
import type { Principal } from "../../core/model.ts";
import { forbidden } from "../../core/errors.ts";
import { principalOf } from "../context.ts";

/** The caller's principal, refused (403) unless it is the account key. */
export function requireAccountKey(request: Request): Principal {
  const p = principalOf(request);
  if (p.kind !== "account") {
    throw forbidden("domain sending keys may only send messages (POST /v3/<domain>/messages and messages.mime); use the account key");
  }
  return p;
}
