// Reads the body of a message/feedback-report part (ARF, RFC 5965 §3) into its fields.
// Pre-RFC feedback loops (AOL, Yahoo, Microsoft JMRP: "Version: 0.1") use the same syntax
// with a few older field names, accepted here as aliases.
import { cleanAddress, cleanHost, fieldValue, fieldValues, parseFieldGroups } from "./report-fields.ts";

export interface FeedbackFields {
  /** RFC 5965 §7.3: abuse, fraud, other, virus; auth-failure (RFC 6591); not-spam (RFC 6430). */
  feedbackType: string;
  userAgent?: string;
  version?: string;
  originalEnvelopeId?: string;
  /** Envelope sender of the reported message, angle brackets removed. */
  originalMailFrom?: string;
  /** Envelope recipients (repeatable), angle brackets removed; often absent or redacted. */
  originalRcptTo: string[];
  arrivalDate?: string;
  reportingMta?: string;
  sourceIp?: string;
  incidents?: number;
  authenticationResults: string[];
  reportedDomains: string[];
  reportedUris: string[];
}

/** Parses a feedback-report body; null without the required Feedback-Type (RFC 5965 §3.1). */
export function parseFeedbackFields(body: string): FeedbackFields | null {
  const fields = parseFieldGroups(body).flat();
  const feedbackType = fieldValue(fields, "feedback-type")?.toLowerCase().split(/[\s;(]/)[0];
  if (!feedbackType) return null;
  const userAgent = fieldValue(fields, "user-agent");
  const version = fieldValue(fields, "version");
  const originalEnvelopeId = fieldValue(fields, "original-envelope-id");
  const mailFrom = fieldValue(fields, "original-mail-from");
  // "Received-Date" is the pre-RFC name of Arrival-Date (draft-shafranovich-feedback-report).
  const arrivalDate = fieldValue(fields, "arrival-date") ?? fieldValue(fields, "received-date");
  const reportingMta = fieldValue(fields, "reporting-mta");
  const sourceIp = fieldValue(fields, "source-ip");
  const incidents = Number.parseInt(fieldValue(fields, "incidents") ?? "", 10);
  // "Removal-Recipient" is the old AOL name for the complaining recipient.
  const rcptTo = [...fieldValues(fields, "original-rcpt-to"), ...fieldValues(fields, "removal-recipient")];
  return {
    feedbackType,
    originalRcptTo: rcptTo.map(cleanAddress).filter((address) => address !== ""),
    authenticationResults: fieldValues(fields, "authentication-results"),
    reportedDomains: fieldValues(fields, "reported-domain").map((domain) => domain.toLowerCase()),
    reportedUris: fieldValues(fields, "reported-uri").map((uri) => uri.replace(/^<(.*)>$/, "$1")),
    ...(userAgent ? { userAgent } : {}),
    ...(version ? { version } : {}),
    ...(originalEnvelopeId ? { originalEnvelopeId } : {}),
    ...(mailFrom !== undefined ? { originalMailFrom: cleanAddress(mailFrom) } : {}),
    ...(arrivalDate ? { arrivalDate } : {}),
    ...(reportingMta ? { reportingMta: cleanHost(reportingMta) } : {}),
    ...(sourceIp ? { sourceIp } : {}),
    ...(Number.isFinite(incidents) ? { incidents } : {}),
  };
}
