// Console single sign-on (docs/team.md): GET /ui/oidc/start sends the browser to the provider with
// the flow's state in a short cookie; GET /ui/oidc/callback (the redirect URI registered at the
// provider: <public_url>/ui/oidc/callback) checks it, signs the linked user in and goes back to
// the console, or, for a user with TOTP, to the console's code step (the pending sign-in's token in
// a cookie only POST /ui/api/session receives: session.ts). The state cookie is SameSite=Lax
// because the callback is a navigation from the provider's site, which a Strict cookie would not
// accompany; the session and code-step cookies stay Strict (they are only read by this site's fetches).
import { AppError, notFound } from "../../core/errors.ts";
import type { Team } from "../../core/team/index.ts";
import type { SessionService } from "../../core/sessions.ts";
import { describeError } from "../errors.ts";
import { cookieValue, sessionCookie, signinCookie } from "./session.ts";
import { contextOf } from "../context.ts";

const STATE_COOKIE = "postern_oidc";

const stateCookie = (value: string, maxAge: number, secure: boolean) =>
  `${STATE_COOKIE}=${value}; Path=/ui/oidc; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain page for a refused sign-in (no script: the console's CSP applies). */
function refusal(err: unknown, secure: boolean): Response {
  const info = describeError(err);
  const message = info.status >= 500 && info.code !== "unavailable" ? "internal server error" : info.message;
  const html = `<!doctype html><meta charset="utf-8"><title>Sign-in refused</title><h1>Single sign-on did not sign you in</h1>` +
    `<p id="error">${escapeHtml(message)}</p><p><a href="/ui">Back to the console</a></p>`;
  return new Response(html, { status: info.status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store",
    "content-security-policy": "default-src 'none'", "set-cookie": stateCookie("", 0, secure) } });
}

export function createOidcGate(deps: { team: Pick<Team, "oidc">; sessions: SessionService; now: () => number; secureCookie: boolean }) {
  return async function oidc(req: Request, path: string): Promise<Response> {
    const sso = deps.team.oidc;
    try {
      if (!sso || req.method !== "GET") throw notFound("single sign-on is not configured");
      if (path === "/ui/oidc/start") {
        const { url, state } = await sso.start(contextOf(req).ip);
        return new Response(null, { status: 302, headers: { location: url, "set-cookie": stateCookie(state, 600, deps.secureCookie), "cache-control": "no-store" } });
      }
      if (path !== "/ui/oidc/callback") throw notFound("not found");
      const done = await sso.finish(new URL(req.url).searchParams, cookieValue(req, STATE_COOKIE), contextOf(req).ip);
      const headers = new Headers({ "cache-control": "no-store" });
      headers.append("set-cookie", stateCookie("", 0, deps.secureCookie));
      if (done.codeToken) {
        headers.set("location", "/ui#/sso-code");
        headers.append("set-cookie", signinCookie(done.codeToken, 600, deps.secureCookie));
        return new Response(null, { status: 302, headers });
      }
      const s = await deps.sessions.signInUser(done.user, "oidc");
      headers.set("location", "/ui#/domains");
      headers.append("set-cookie", sessionCookie(s.token, Math.floor((s.expiresAt - deps.now()) / 1000), deps.secureCookie));
      return new Response(null, { status: 302, headers });
    } catch (err) {
      return refusal(err instanceof AppError || err instanceof Error ? err : new Error(String(err)), deps.secureCookie);
    }
  };
}
