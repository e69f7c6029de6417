// The console API's error shape: {"message": "...", "field": "..."} with the status of the error
// code; never a stack trace. The page shows `message` next to the form that failed.
import { AppError } from "../../core/errors.ts";
import { describeError, json } from "../errors.ts";

export function renderConsoleError(err: unknown, elysiaCode?: string | number): Response {
  const info = describeError(err, elysiaCode);
  const field = err instanceof AppError ? err.issues[0]?.field : undefined;
  const message = info.status >= 500 && info.code !== "unavailable" ? "internal server error" : info.message;
  return json(info.status, field ? { message, field } : { message });
}
