// Shared pieces of the per-surface error mappers: turning anything thrown (AppError, Elysia's
// VALIDATION / PARSE / NOT_FOUND, unknown failures) into a status and a message, never a stack.
import { AppError, STATUS_BY_CODE, type Issue } from "../core/errors.ts";
import { STORAGE_RETRY_AFTER_S } from "../core/disk-guard.ts";

export interface ErrorInfo {
  status: number;
  message: string;
  issues: Issue[];
  code: AppError["code"];
}

/** Classifies a thrown value; `elysiaCode` is the code Elysia's onError reports, if any. */
export function describeError(err: unknown, elysiaCode?: string | number): ErrorInfo {
  if (err instanceof AppError) return { status: STATUS_BY_CODE[err.code], message: err.message, issues: err.issues, code: err.code };
  if (elysiaCode === "NOT_FOUND") return { status: 404, message: "not found", issues: [], code: "not_found" };
  if (elysiaCode === "PARSE") return { status: 400, message: "the request body could not be parsed", issues: [], code: "invalid" };
  if (elysiaCode === "VALIDATION") return { status: 400, message: validationMessage(err), issues: [], code: "invalid" };
  const status = (err as { status?: unknown })?.status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return { status, message: (err as Error).message || "bad request", issues: [], code: "invalid" };
  }
  return { status: 500, message: "internal server error", issues: [], code: "internal" };
}

function validationMessage(err: unknown): string {
  const all = (err as { all?: { path?: string; summary?: string; message?: string }[] })?.all;
  const first = Array.isArray(all) ? all[0] : undefined;
  if (first) return `${first.path ? first.path.replace(/^\//, "").replace(/\//g, ".") + ": " : ""}${first.summary ?? first.message ?? "invalid value"}`;
  return "invalid request";
}

/** A failure no client caused, as the dispatcher hands it to a renderer: carries the request id. */
export class Unexpected extends Error {
  constructor(readonly requestId: string, readonly original: unknown) {
    super("internal server error");
  }
}

/** A 5xx message with the request id appended when there is one (the log line carries the same id). */
export const internalMessage = (err: unknown, message: string) =>
  err instanceof Unexpected ? `${message} (request id ${err.requestId})` : message;

/**
 * A passing refusal (the core's `unavailable`: disk space low, the server stopping): the surface
 * answers 503 in its own shape with these headers, so clients retry instead of giving up.
 */
export function unavailableHeaders(err: unknown): Record<string, string> | null {
  if (!(err instanceof AppError) || err.code !== "unavailable") return null;
  return { "retry-after": String(err.reason === "stopping" ? 5 : STORAGE_RETRY_AFTER_S) };
}

/** Errors of the paths no vendor owns (health, docs, tracking): `{"message"}`. */
export function renderPlain(err: unknown, code?: string | number): Response {
  const info = describeError(err, code);
  const passing = unavailableHeaders(err);
  if (passing) return json(503, { message: info.message }, passing);
  return json(info.status, { message: info.status >= 500 ? internalMessage(err, "internal server error") : info.message });
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

/** True for failures no client caused: surfaces rethrow them so the dispatcher logs them once. */
export const isUnexpected = (err: unknown, elysiaCode?: string | number) =>
  !(err instanceof AppError) && describeError(err, elysiaCode).status >= 500;

/** A surface's Elysia onError: client mistakes in the vendor's shape, the unexpected up to the dispatcher. */
export function surfaceOnError(render: (err: unknown, code?: string | number) => Response) {
  return ({ code, error }: { code: string | number; error: unknown }) => {
    if (isUnexpected(error, code)) throw error;
    return render(error, code);
  };
}
