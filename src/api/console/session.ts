// Console sign-in, sign-out and the gate in front of every console API call. The session token
// travels only in an HttpOnly, SameSite=Strict cookie; every state-changing request must also
// carry the session's CSRF token in X-CSRF-Token (the page keeps it in memory, never in storage)
// and, when the browser sends one, an Origin of this host.
import { timingSafeEqual } from "node:crypto";
import type { SessionService } from "../../core/sessions.ts";
import type { Principal } from "../../core/model.ts";
import type { UserService } from "../../core/team/users.ts";
import type { Invitations } from "../../core/team/invitations.ts";
import type { Team } from "../../core/team/index.ts";
import { AppError, forbidden, unauthenticated } from "../../core/errors.ts";
import type { Throttle } from "../../core/throttle.ts";
import { contextOf, setContext } from "../context.ts";
import { json } from "../errors.ts";
import { renderConsoleError } from "./errors.ts";
import { field } from "./policy.ts";
import { readCapped } from "../request-guard.ts";

export const SESSION_COOKIE = "postern_session";
/** A single sign-on waiting for the user's TOTP code (oidc.ts sets it; only the sign-in call reads it). */
export const SIGNIN_COOKIE = "postern_signin";
export const CSRF_HEADER = "x-csrf-token";

export function cookieValue(req: Request, name: string): string | null {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const [k, ...rest] = part.trim().split("=");
    if (k === name) return rest.join("=") || null;
  }
  return null;
}

export const sessionToken = (req: Request): string | null => cookieValue(req, SESSION_COOKIE);

export function sessionCookie(value: string, maxAgeSec: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Path=/ui; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSec}${secure ? "; Secure" : ""}`;
}

export function signinCookie(value: string, maxAgeSec: number, secure: boolean): string {
  return `${SIGNIN_COOKIE}=${value}; Path=/ui/api/session; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSec}${secure ? "; Secure" : ""}`;
}

/** Sign-in and invitation bodies are a few short fields: before anyone is signed in no more is read,
 *  so a stranger's 64 MB JSON is never buffered or parsed (it was: 0.6 s and some 400 MB a request). */
const MAX_SIGN_IN_BODY_BYTES = 16 * 1024;
const signInBody = async (req: Request): Promise<unknown> => {
  try { return JSON.parse(await readCapped(req, MAX_SIGN_IN_BODY_BYTES)); } catch { return null; }
};

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** A browser's Origin (when sent) must be this host: a second wall behind SameSite. */
function sameOrigin(req: Request): boolean {
  const origin = req.headers.get("origin");
  if (origin === null) return true;
  try { return new URL(origin).host === (req.headers.get("host") ?? new URL(req.url).host); } catch { return false; }
}

const whoami = (s: { csrf: string; expiresAt: number; principal: Principal; switcher?: boolean }) => ({
  signedIn: true, kind: s.principal.kind, keyId: s.principal.keyId, domain: s.principal.domain?.name ?? null, grants: s.principal.grants,
  ...(s.principal.userId ? { userId: s.principal.userId, role: s.principal.role, mustEnrol: Boolean(s.principal.mustEnrol) } : {}),
  // The tenant acted for (null: reading every tenant), read-only while it is suspended, and whether the switcher is offered.
  tenant: s.principal.readAll ? null : s.principal.tenant ?? 0, readOnly: Boolean(s.principal.readOnly), switcher: Boolean(s.switcher),
  csrf: s.csrf, expiresAt: s.expiresAt,
});

/** While a user must enrol TOTP ([console] require_totp), only these answer. */
const ENROL_PATHS = /^\/ui\/api\/me(\/|$)/;

export interface GateDeps {
  sessions: SessionService;
  now: () => number;
  secureCookie: boolean;
  throttle?: Throttle;
  team: { users: Pick<UserService, "authenticate">; invitations: Pick<Invitations, "accept">; oidc: Pick<NonNullable<Team["oidc"]>, "takeCode" | "code"> | null };
}

export function createSessionGate(deps: GateDeps) {
  /** A key, or a user's email and password (and TOTP code): wrong ones count against the same lockout. */
  async function open(req: Request, body: unknown, subjects: string[]) {
    const email = field(body, "email");
    if (!email && !field(body, "key") && cookieValue(req, SIGNIN_COOKIE)) return ssoCode(req, body, subjects);
    const attempt = email
      ? deps.team.users.authenticate(email, field(body, "password"), field(body, "code") || undefined).then((u) => deps.sessions.signInUser(u, "password"))
      : deps.sessions.signIn(field(body, "key"));
    return attempt.catch((err) => {
      // A missing code is the second step of a right password, not a failure.
      if (err instanceof AppError && err.code === "unauthenticated" && !(err.field === "code" && !field(body, "code"))) deps.throttle?.fail(subjects);
      throw err;
    });
  }

  /**
   * A single sign-on's second step for a user with TOTP: the code against the pending sign-in the
   * cookie names, with the password sign-in's lockout (per address and per email). A wrong code
   * leaves it waiting (until its 10 minutes are up) for another try.
   */
  async function ssoCode(req: Request, body: unknown, subjects: string[]) {
    const pending = await deps.team.oidc?.takeCode(cookieValue(req, SIGNIN_COOKIE));
    if (!pending) throw unauthenticated("this single sign-on is unknown or expired: sign in again");
    const all = [...subjects, `user:${pending.user.email}`];
    const wait = deps.throttle?.lockedFor(all) ?? 0;
    if (wait > 0) {
      await pending.restore();
      throw new AppError("rate_limited", `too many failed sign-ins; retry in ${Math.ceil(wait / 1000)} s`);
    }
    const code = field(body, "code") || undefined;
    try {
      return await deps.sessions.signInUser(await deps.team.oidc!.code(pending.user, code), "oidc");
    } catch (err) {
      if (err instanceof AppError && err.code === "unauthenticated") {
        await pending.restore();
        if (code) deps.throttle?.fail(all);
      }
      throw err;
    }
  }

  async function signIn(req: Request): Promise<Response> {
    // JSON only: a cross-site form cannot send it without a CORS preflight (no login CSRF).
    if (!(req.headers.get("content-type") ?? "").startsWith("application/json") || !sameOrigin(req)) {
      return renderConsoleError(forbidden("sign-in needs a JSON body from this site"));
    }
    const body = await signInBody(req);
    const email = field(body, "email").toLowerCase();
    const subjects = [`ip:${contextOf(req).ip}`, ...(email ? [`user:${email}`] : [])];
    const wait = deps.throttle?.lockedFor(subjects) ?? 0;
    if (wait > 0) return renderConsoleError(new AppError("rate_limited", `too many failed sign-ins; retry in ${Math.ceil(wait / 1000)} s`));
    const s = await open(req, body, subjects);
    const maxAge = Math.floor((s.expiresAt - deps.now()) / 1000);
    const res = json(200, whoami(s), { "set-cookie": sessionCookie(s.token, maxAge, deps.secureCookie), "cache-control": "no-store" });
    if (cookieValue(req, SIGNIN_COOKIE)) res.headers.append("set-cookie", signinCookie("", 0, deps.secureCookie));
    return res;
  }

  return {
    /** /ui/api/session: GET who is signed in, POST sign in, DELETE sign out. */
    async session(req: Request): Promise<Response> {
      try {
        if (req.method === "POST") return await signIn(req);
        const s = await deps.sessions.resolve(sessionToken(req));
        // Asking is not an error: the page asks on every load (no 401 noise in the browser's console).
        if (req.method === "GET") {
          return json(200, s ? whoami(s) : { signedIn: false, ...(deps.team.oidc ? { oidc: true } : {}), ...(cookieValue(req, SIGNIN_COOKIE) ? { ssoCode: true } : {}) },
            { "cache-control": "no-store" });
        }
        if (!s) return renderConsoleError(unauthenticated("not signed in"));
        if (req.method !== "DELETE") return renderConsoleError(new AppError("invalid", "use GET, POST or DELETE"));
        if (!sameText(req.headers.get(CSRF_HEADER) ?? "", s.csrf) || !sameOrigin(req)) return renderConsoleError(forbidden("missing or wrong CSRF token"));
        await deps.sessions.signOut(sessionToken(req));
        return json(200, { message: "signed out" }, { "set-cookie": sessionCookie("", 0, deps.secureCookie) });
      } catch (err) {
        return renderConsoleError(err);
      }
    },

    /** POST /ui/api/invitations/accept {token, password}: no session yet; JSON from this site only. */
    async accept(req: Request): Promise<Response> {
      try {
        if (req.method !== "POST" || !(req.headers.get("content-type") ?? "").startsWith("application/json") || !sameOrigin(req)) {
          return renderConsoleError(forbidden("accepting an invitation needs a JSON POST from this site"));
        }
        const body = await signInBody(req);
        return json(200, await deps.team.invitations.accept(field(body, "token"), field(body, "password")));
      } catch (err) {
        return renderConsoleError(err);
      }
    },

    /** Resolves the session into the request's principal; a Response when the request may not go on. */
    async guard(req: Request): Promise<Response | null> {
      const s = await deps.sessions.resolve(sessionToken(req));
      if (!s) return renderConsoleError(unauthenticated("not signed in"));
      if (req.method !== "GET" && req.method !== "HEAD") {
        if (!sameText(req.headers.get(CSRF_HEADER) ?? "", s.csrf) || !sameOrigin(req)) return renderConsoleError(forbidden("missing or wrong CSRF token"));
      }
      if (s.principal.mustEnrol && !ENROL_PATHS.test(new URL(req.url).pathname)) return renderConsoleError(forbidden("set up two-factor sign-in (TOTP) first"));
      setContext(req, { ...contextOf(req), principal: s.principal });
      return null;
    },
  };
}
