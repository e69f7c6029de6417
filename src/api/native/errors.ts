// The native surface's error shape: {"message": "..."} plus `status` (spec S2 error table).
import { describeError, json } from "../errors.ts";

export function renderNativeError(err: unknown, elysiaCode?: string | number): Response {
  const info = describeError(err, elysiaCode);
  const message = info.status === 401 ? "Unauthorized" : info.status >= 500 ? "Internal server error" : info.message;
  const body: Record<string, unknown> = { message, status: info.status };
  const strings = (err as { errorList?: string[] })?.errorList;
  if (strings) body.errors = strings;
  return json(info.status, body);
}
