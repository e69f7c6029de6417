// The answer when a domain's zone is served elsewhere and cannot answer: each surface's own error
// body with a gateway status, never a stack trace. 503 when the zone cannot be reached, 504 when it
// does not answer in time, 502 when the request came proxied already (a zone url pointing at a
// node that does not serve that zone: answering beats bouncing the request between nodes).
import { json } from "../errors.ts";

export type GatewayStatus = 502 | 503 | 504;
export type ZoneSurface = "sendgrid" | "mailgun" | "sparkpost" | "native" | "console";

// SparkPost's numeric code for a failure on its side (its 5xx answers carry 1500).
const SPARKPOST_CODE = "1500";

export function gatewayError(surface: ZoneSurface, status: GatewayStatus, message: string): Response {
  // The client sees a passing failure: a 503 or 504 invites a retry, as the vendors' own do.
  const headers: Record<string, string> = status === 502 ? {} : { "retry-after": "5" };
  switch (surface) {
    case "sendgrid": return json(status, { errors: [{ message, field: null, help: null }] }, headers);
    case "sparkpost": return json(status, { errors: [{ message: "Service unavailable", code: SPARKPOST_CODE, description: message }] }, headers);
    case "native": return json(status, { message, status }, headers);
    case "mailgun": case "console": return json(status, { message }, headers);
  }
}
