// The console's one way to talk to the server: JSON over fetch with the session cookie, and the
// session's CSRF token (kept in this module's memory only, never in browser storage) on writes.
let csrf = "";
let onSignedOut = () => {};

export function setSession(session) { csrf = session ? session.csrf : ""; }
export function whenSignedOut(fn) { onSignedOut = fn; }

export class ApiError extends Error {
  constructor(status, message, field) { super(message); this.status = status; this.field = field; }
}

export async function call(method, path, body) {
  const headers = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (method !== "GET") headers["x-csrf-token"] = csrf;
  const res = await fetch(`/ui/api${path}`, { method, headers, credentials: "same-origin", cache: "no-store",
    body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (res.status === 401 && path !== "/session") onSignedOut();
  if (!res.ok) throw new ApiError(res.status, data.message || `HTTP ${res.status}`, data.field);
  return data;
}

export const get = (path) => call("GET", path);
export const post = (path, body = {}) => call("POST", path, body);
export const patch = (path, body) => call("PATCH", path, body);
export const del = (path) => call("DELETE", path);
export const enc = encodeURIComponent;
