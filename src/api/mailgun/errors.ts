// Mailgun's error shape: {"message": "..."} JSON, except 401, which is the plain-text body
// "Forbidden" (mailgun.js reads it into err.details). Mailgun answers a duplicate with 400, not
// 409; a field path of the core ("message.to.0.email") is named by its Mailgun parameter.
import { AppError, type Issue } from "../../core/errors.ts";
import { describeError, internalMessage, json, unavailableHeaders } from "../errors.ts";

// The first segment after an envelope path ("message.", "recipient.3.") is the form parameter.
const PARAMETER = /^(?:(?:message|recipient\.\d+|envelopes\.\d+)\.)?(from|to|cc|bcc|subject|reply_to|headers\.[^.]+|content)\b/;

function parameterOf(field: string | undefined): string | undefined {
  const m = field ? PARAMETER.exec(field) : null;
  if (!m) return undefined;
  const name = m[1]!;
  if (name.startsWith("headers.")) return `h:${name.slice("headers.".length)}`;
  return name === "content" ? "text" : name === "reply_to" ? "h:Reply-To" : name;
}

/** Mailgun's "to parameter is not a valid address" for address issues, else the issue named by its parameter. */
function issueMessage(issue: Issue): string {
  const param = parameterOf(issue.field);
  if (!param || issue.message.includes(param)) return issue.message;
  if (/\.email$/.test(issue.field ?? "")) {
    const detail = issue.message.startsWith("is ") ? "please check documentation" : issue.message;
    return `${param} parameter is not a valid address. ${detail}`;
  }
  return `${param}: ${issue.message}`;
}

export function renderMailgunError(err: unknown, elysiaCode?: string | number): Response {
  const info = describeError(err, elysiaCode);
  const passing = unavailableHeaders(err);
  if (passing) return json(503, { message: info.message }, passing);
  if (info.status === 401) return new Response("Forbidden", { status: 401, headers: { "content-type": "text/plain" } });
  if (info.status >= 500) return json(info.status, { message: internalMessage(err, "Internal server error") });
  const status = err instanceof AppError && err.code === "conflict" ? 400 : info.status;
  const message = info.issues.length ? info.issues.map(issueMessage).join("; ") : info.message || "Forbidden";
  return json(status, { message });
}
