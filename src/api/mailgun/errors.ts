// Mailgun's error shape: {"message": "..."} JSON, except 401, which is the plain-text body
// "Forbidden" (mailgun.js reads it into err.details).
import { describeError, json } from "../errors.ts";

export function renderMailgunError(err: unknown, elysiaCode?: string | number): Response {
  const info = describeError(err, elysiaCode);
  if (info.status === 401) return new Response("Forbidden", { status: 401, headers: { "content-type": "text/plain" } });
  if (info.status === 403) return json(403, { message: info.message || "Forbidden" });
  return json(info.status, { message: info.status >= 500 ? "Internal server error" : info.message });
}
