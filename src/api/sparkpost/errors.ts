// SparkPost's error shape: {"errors":[{"message","code","description"}]} with its numeric codes.
import { describeError, json } from "../errors.ts";

const CODE_BY_STATUS: Record<number, string> = { 400: "1300", 401: "1001", 403: "1002", 404: "1600", 409: "1602", 413: "1300", 420: "2102", 422: "1400", 429: "1901", 500: "1500" };

export function renderSparkpostError(err: unknown, elysiaCode?: string | number): Response {
  const info = describeError(err, elysiaCode);
  const explicit = (err as { sparkpostCode?: string })?.sparkpostCode;
  if (info.status === 401) return json(401, { errors: [{ message: "Unauthorized.", code: "1001", description: "Unauthorized." }] });
  if (info.status === 404 && elysiaCode === "NOT_FOUND") return json(404, { errors: [{ message: "Resource could not be found", code: "1600", description: "" }] });
  const status = info.status >= 500 ? 500 : info.status;
  const message = status === 500 ? "Internal server error" : info.message;
  const errors = info.issues.length > 1
    ? info.issues.map((i) => ({ message: i.message, code: explicit ?? CODE_BY_STATUS[status] ?? "1300", description: i.field ? `${i.field}: ${i.message}` : i.message }))
    : [{ message, code: explicit ?? CODE_BY_STATUS[status] ?? "1300", description: info.issues[0]?.field ? `${info.issues[0].field}: ${message}` : message }];
  return json(status, { errors });
}
