// Which key may call what on the Mailgun surface, as declarations for the permission guard
// (api/permission.ts). As on Mailgun, a domain (sending) key may only send messages for its own
// domain; every other endpoint needs the account (primary) key, and a restricted key the right.
import type { Permission, Right } from "../../core/permissions.ts";

/**
 * An endpoint for the account key only (holding `right`). Its `:domain` path parameter, when it has
 * one, is declared so that another tenant's domain is refused (X-Mailgun-On-Behalf-Of, docs/tenants.md).
 */
export const accountOnly = (right: Right): Permission => ({ right, keys: "account", domain: "domain" });

/** Sending for the path's domain: the account key or that domain's sending key. */
export const SEND: Permission = { right: "mail.send", domain: "domain" };
