// The native surface's error shape: {"message": "...", "status": N} (spec S2 error table), plus
// `errors` (strings) when a webhook endpoint failed its check. Field paths prefix the message so a
// low-code user sees which form field was wrong.
import { AppError } from "../../core/errors.ts";
import { describeError, internalMessage, json, unavailableHeaders } from "../errors.ts";

/** An AppError that also carries the `errors` list of the spec's webhook-create 402. */
export class ErrorListError extends AppError {
  readonly errorList: string[];
  constructor(code: AppError["code"], message: string, errorList: string[]) {
    super(code, message);
    this.errorList = errorList;
  }
}

function messageOf(err: unknown, info: ReturnType<typeof describeError>): string {
  if (info.status === 401) return "Unauthorized";
  if (info.status >= 500) return internalMessage(err, "Internal server error");
  // The core names the message's pool ipPool; the native form field is `pool`.
  if (err instanceof AppError && err.reason === "unknown_pool") return `pool: ${info.message}`;
  const field = err instanceof AppError ? err.issues[0]?.field?.replace(/^\./, "") : undefined;
  if (field && info.code === "invalid" && !info.message.startsWith(field)) return `${field}: ${info.message}`;
  return info.message;
}

export function renderNativeError(err: unknown, elysiaCode?: string | number): Response {
  const info = describeError(err, elysiaCode);
  const passing = unavailableHeaders(err);
  if (passing) return json(503, { message: info.message, status: 503 }, passing);
  const body: Record<string, unknown> = { message: messageOf(err, info), status: info.status };
  const strings = (err as { errorList?: string[] })?.errorList;
  if (strings) body.errors = strings;
  return json(info.status, body);
}
