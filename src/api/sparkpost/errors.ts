// SparkPost's error shape: {"errors":[{"message","code","description"}]} with its numeric codes
// (as strings), its status codes (422 for bad fields, 420 for sending limits) and, where SparkPost
// sends one, a `results` object beside `errors` (1902 on a suppressed single recipient).
import { AppError, type ErrorCode, type Issue } from "../../core/errors.ts";
import { MalformedRequest } from "../request-guard.ts";
import { describeError, internalMessage, json, unavailableHeaders } from "../errors.ts";

const CODE_BY_STATUS: Record<number, string> = { 400: "1300", 401: "1001", 403: "1002", 404: "1600", 409: "1602", 413: "1300", 420: "2101", 422: "1300", 429: "1901", 500: "1500" };

export interface SparkpostErrorItem {
  message: string;
  code: string | number;
  description?: string;
  [extra: string]: unknown;
}

/** An error that knows its SparkPost status, code and (optionally) a `results` body part. */
export class SparkpostError extends AppError {
  readonly status: number;
  readonly sparkpostCode: string;
  readonly items: SparkpostErrorItem[];
  readonly results?: unknown;
  constructor(status: number, items: SparkpostErrorItem[], opts: { results?: unknown; code?: ErrorCode } = {}) {
    super(opts.code ?? (status === 404 ? "not_found" : status === 403 ? "forbidden" : "invalid"), items[0]?.message ?? "error");
    this.status = status;
    this.sparkpostCode = String(items[0]?.code ?? CODE_BY_STATUS[status] ?? "1300");
    this.items = items;
    this.results = opts.results;
  }
}

/** One-item SparkPost error: `spError(422, "1400", "required field is missing", "content.from is required")`. */
export const spError = (status: number, code: string, message: string, description?: string) =>
  new SparkpostError(status, [{ message, code, ...(description !== undefined ? { description } : {}) }]);

export const missingField = (description: string) => spError(422, "1400", "required field is missing", description);
export const badFormat = (description: string) => spError(422, "1300", "invalid data format/type", description);
export const notFoundError = (description: string) => spError(404, "1600", "resource not found", description);
export const invalidDomain = () => spError(400, "7001", "Invalid domain", "Unconfigured or unverified sending domain.");

function describeIssue(i: Issue, message: string): string {
  return i.field ? `${i.field}: ${i.message}` : i.message || message;
}


/** Maps anything thrown inside the SparkPost surface (or the dispatcher) to SparkPost's body. */
export function renderSparkpostError(err: unknown, elysiaCode?: string | number): Response {
  if (err instanceof SparkpostError) {
    return json(err.status, err.results === undefined ? { errors: err.items } : { errors: err.items, results: err.results });
  }
  const info = describeError(err, elysiaCode);
  // SparkPost's own 503 (its 5xx answers carry code 1500), with Retry-After.
  const passing = unavailableHeaders(err);
  if (passing) return json(503, { errors: [{ message: "Service unavailable", code: "1500", description: info.message }] }, passing);
  const explicit = (err as { sparkpostCode?: string })?.sparkpostCode;
  if (info.status === 401) return json(401, { errors: [{ message: "Unauthorized.", code: "1001", description: "Unauthorized." }] });
  if (info.status === 404 && elysiaCode === "NOT_FOUND") return json(404, { errors: [{ message: "Resource could not be found", code: "1600", description: "" }] });
  if (elysiaCode === "PARSE") return json(400, { errors: [{ message: "invalid data format/type", code: "1300", description: "the request body is not valid JSON" }] });
  // SparkPost answers field problems with 422 and a sending limit with 420 (whose reason phrase
  // Bun.serve picks itself: "HM"; it ignores statusText, and the client shows it as err.message).
  // An unknown ip_pool is a 400 (contract §9), not the 422 of other field problems.
  if (err instanceof AppError && err.reason === "unknown_pool") return json(400, { errors: [{ message: "invalid data format/type", code: "1300", description: `options.ip_pool: ${err.message}` }] });
  let status = info.status >= 500 ? 500 : info.status;
  if (info.code === "invalid" && status === 400 && err instanceof AppError && !(err instanceof MalformedRequest)) status = 422;
  if (info.code === "payment_required") status = 420;
  const code = explicit ?? CODE_BY_STATUS[status] ?? "1300";
  if (status === 500) return json(500, { errors: [{ message: "Internal server error", code, description: internalMessage(err, "Internal server error") }] });
  if (status === 420) return json(420, { errors: [{ message: `Exceed Sending Limit (${info.message})`, code: "2101" }] });
  const message = status === 422 ? "invalid data format/type" : status === 403 ? "Forbidden." : info.message;
  const errors = info.issues.length
    ? info.issues.map((i) => ({ message, code, description: describeIssue(i, info.message) }))
    : [{ message, code, description: info.message }];
  return json(status, { errors });
}
