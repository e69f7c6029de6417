// SendGrid's error shape: {"errors":[{"message","field","help"}]}, one entry per problem, with
// dotted field paths such as personalizations.0.to.1.email and SendGrid's help links for 400s.
import { describeError, internalMessage, json, unavailableHeaders } from "../errors.ts";
import { helpFor, MSG } from "./model.ts";
import { AppError } from "../../core/errors.ts";
import { PermissionDenied } from "../permission.ts";

const MESSAGES: Record<number, string> = {
  401: "The provided authorization grant is invalid, expired, or revoked",
  403: "access forbidden",
  404: "not found",
  413: "content too large",
  429: "too many requests",
  500: "internal server error",
};

export function renderSendgridError(err: unknown, elysiaCode?: string | number): Response {
  const info = describeError(err, elysiaCode);
  const passing = unavailableHeaders(err);
  if (passing) return json(503, { errors: [{ message: info.message, field: null, help: null }] }, passing);
  // An unknown path: SendGrid's own words.
  if (elysiaCode === "NOT_FOUND" && !(err instanceof AppError)) return json(404, { errors: [{ field: null, message: "resource not found" }] });
  // A refusal of the permission model reads as SendGrid's own: "access forbidden".
  const generic = info.status === 401 || info.status >= 500 || err instanceof PermissionDenied;
  // An egress pool that is not configured: SendGrid's field name for it.
  if (err instanceof AppError && err.reason === "unknown_pool") return json(400, { errors: [{ message: err.message, field: "ip_pool_name", help: null }] });
  // The core's sender identity refusal in SendGrid's words.
  if (err instanceof AppError && err.reason === "sender_identity") return json(403, { errors: [{ message: MSG.senderIdentity, field: "from", help: null }] });
  const message = info.status >= 500 ? internalMessage(err, MESSAGES[500]!) : generic ? MESSAGES[info.status] ?? info.message : info.message;
  const errors = info.issues.length && info.status === 400
    ? info.issues.map((i) => ({ message: i.message, field: i.field ?? null, help: helpFor(i.field) }))
    : [{ message, field: info.issues[0]?.field ?? null, help: info.status === 400 ? helpFor(info.issues[0]?.field) : null }];
  return json(info.status, { errors });
}

