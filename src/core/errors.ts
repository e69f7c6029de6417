// The one domain error of postern. Each HTTP surface maps it to its vendor's body in its own
// errors.ts; the CLI maps it to exit 1 with one line on stderr.

export type ErrorCode =
  | "invalid"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "too_large"
  | "payment_required"
  | "rate_limited"
  | "unavailable"
  | "internal";

/** One problem with one input field; `field` is a dotted path such as `personalizations.0.to.1.email`. */
export interface Issue {
  field?: string;
  message: string;
}

/**
 * Why the core refused, when a surface words that refusal its own way: "sender_identity" (the
 * from address is not one the domain may send as, or the domain does not send); "unknown_pool" (the
 * message names an egress pool or sending address that is not configured: a 400 everywhere);
 * "storage" (new mail waits for disk space: core/disk-guard.ts); "stopping" (the server is shutting
 * down). Both of the last two are `unavailable`: a 503 with Retry-After on HTTP, a 4xx on SMTP.
 */
export type RefusalReason = "sender_identity" | "unknown_pool" | "storage" | "stopping";

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly field?: string;
  readonly issues: Issue[];
  readonly reason?: RefusalReason;
  constructor(code: ErrorCode, message: string, opts: { field?: string; issues?: Issue[]; reason?: RefusalReason } = {}) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.field = opts.field;
    this.reason = opts.reason;
    this.issues = opts.issues ?? (opts.field ? [{ field: opts.field, message }] : []);
  }
}

export const invalid = (message: string, field?: string) => new AppError("invalid", message, { field });
export const invalidMany = (issues: Issue[]) =>
  new AppError("invalid", issues[0]?.message ?? "invalid request", { issues });
export const notFound = (message: string) => new AppError("not_found", message);
export const forbidden = (message: string) => new AppError("forbidden", message);
export const unauthenticated = (message = "invalid or missing API key") => new AppError("unauthenticated", message);
export const conflict = (message: string) => new AppError("conflict", message);

/** HTTP status that fits each code when a surface has no better vendor rule. */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  payment_required: 402,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
};

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;
