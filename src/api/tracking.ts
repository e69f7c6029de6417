// The tracking endpoints: open pixel, click redirect, unsubscribe (acting only on POST, RFC 8058
// one-click or the confirmation form, never on a scanner's GET) and the honeypot link. A token
// that does not verify gets 404, so no URL of ours can redirect anywhere else.
import type { SurfaceHandler } from "./server.ts";
import type { TokenCodec, TrackingKind } from "../tracking/token.ts";
import type { InteractionRecorder } from "../tracking/interactions.ts";
import type { BotDetector } from "../tracking/bot-detector.ts";
import type { Logger } from "../log.ts";
import { contextOf } from "./context.ts";
import type { ListService } from "../core/list-service.ts";
import type { Preferences } from "../tracking/preferences.ts";
import { PREFERENCES_SCOPE } from "../tracking/rewrite.ts";
import { preferencesPage, readPreferencesForm } from "./preferences-page.ts";
import { readCapped } from "./request-guard.ts";

// The smallest transparent GIF (43 bytes).
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
const NO_STORE = { "cache-control": "no-store, no-cache, must-revalidate, private", pragma: "no-cache" };
const KINDS: Record<string, TrackingKind> = { o: "open", c: "click", u: "unsubscribe" };

const page = (title: string, body: string, status = 200) => new Response(
  `<!doctype html><html><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${title}</title></head>` +
  `<body style="font-family:sans-serif;max-width:32em;margin:4em auto">${body}</body></html>`,
  { status, headers: { "content-type": "text/html; charset=utf-8", ...NO_STORE } });

/** RFC 8058's one-click body is `List-Unsubscribe=One-Click`; a confirmation form is as small. */
const MAX_UNSUBSCRIBE_BODY_BYTES = 4096;
const MAX_ID_CHARS = 256;

/** A malformed %-escape in a path is the client's problem: keep the raw text rather than fail. */
const safeDecode = (s: string) => { try { return decodeURIComponent(s); } catch { return s; } };

export interface TrackingDeps {
  codec: TokenCodec;
  /** Mailing lists, for %mailing_list_unsubscribe_url% links (/t/l/). */
  lists: Pick<ListService, "unsubscribe">;
  recorder: InteractionRecorder;
  /** Unsubscribe group preferences (<%asm_preferences_raw_url%> links). */
  preferences: Preferences;
  detector: BotDetector;
  log: Logger;
}

export function createTrackingSurface(deps: TrackingDeps): SurfaceHandler {
  const notFound = () => new Response("not found", { status: 404, headers: NO_STORE });

  async function record(kind: TrackingKind, token: string, req: Request, isListUnsubscribe = false) {
    const payload = deps.codec.verify(token);
    if (!payload || payload.kind !== kind) return null;
    const hit = { ip: contextOf(req).ip, userAgent: req.headers.get("user-agent") ?? "", method: req.method };
    const done = deps.recorder.record(payload, hit, { isListUnsubscribe }).catch((e) => { deps.log.error("tracking record failed", { error: String(e) }); return false; });
    return { payload, done };
  }

  async function unsubscribe(token: string, req: Request): Promise<Response> {
    // The token first: a body is read only for a link of ours, and only its first few kilobytes.
    const payload = deps.codec.verify(token);
    if (!payload || payload.kind !== "unsubscribe") return notFound();
    if (payload.url?.startsWith(PREFERENCES_SCOPE)) return preferences(payload, req);
    if (req.method === "GET" || req.method === "HEAD") {
      return page("Unsubscribe", `<p>Do you want to stop receiving these emails?</p><form method="post"><button type="submit">Unsubscribe</button></form>`);
    }
    const form = await readCapped(req, MAX_UNSUBSCRIBE_BODY_BYTES);
    const r = await record("unsubscribe", token, req, /List-Unsubscribe=One-Click/.test(form));
    if (!r) return notFound();
    await r.done;
    return page("Unsubscribed", "<p>You are unsubscribed.</p>");
  }

  /** A preferences link: GET shows the groups with the recipient's choices, POST saves them. */
  async function preferences(payload: NonNullable<ReturnType<TokenCodec["verify"]>>, req: Request): Promise<Response> {
    if (req.method === "GET" || req.method === "HEAD") {
      const groups = await deps.preferences.read(payload);
      return groups ? page("Email preferences", preferencesPage(groups)) : notFound();
    }
    const form = readPreferencesForm(await readCapped(req, MAX_UNSUBSCRIBE_BODY_BYTES));
    const hit = { ip: contextOf(req).ip, userAgent: req.headers.get("user-agent") ?? "", method: req.method };
    if (!(await deps.preferences.save(payload, hit, form.keep, form.leaveAll))) return notFound();
    return page("Email preferences", "<p>Your preferences are saved.</p>");
  }

  /** A mailing list's unsubscribe link: GET asks, POST turns the member's subscription off. */
  async function listUnsubscribe(token: string, req: Request): Promise<Response> {
    const payload = deps.codec.verify(token);
    if (!payload || payload.kind !== "list-unsubscribe") return notFound();
    if (req.method === "GET" || req.method === "HEAD") {
      return page("Unsubscribe", `<p>Do you want to leave this mailing list?</p><form method="post"><button type="submit">Unsubscribe</button></form>`);
    }
    if (!(await deps.lists.unsubscribe(payload.messageId, payload.recipientId))) return notFound();
    return page("Unsubscribed", "<p>You are unsubscribed from this mailing list.</p>");
  }

  return {
    async handle(req: Request): Promise<Response> {
      const path = new URL(req.url).pathname;
      const honeypot = /^\/(?:([^/]+)\/)?([^/]+)\/hclick$/.exec(path);
      if (honeypot) {
        // /{domain}/{message_id}/hclick, or /{message_id}/hclick on the email.{domain} host. The
        // detector keeps only hashes; the ids are cut to an id's length all the same.
        const domain = honeypot[1] ? safeDecode(honeypot[1]) : (req.headers.get("host") ?? "").replace(/^email\./i, "").replace(/:\d+$/, "");
        await deps.detector.honeypotHit(contextOf(req).ip, req.headers.get("user-agent") ?? "", domain.slice(0, MAX_ID_CHARS).toLowerCase(),
          safeDecode(honeypot[2]!).slice(0, MAX_ID_CHARS)).catch((err) => deps.log.error("could not remember a honeypot hit", { error: String(err) }));
        return page("", "", 200);
      }
      const list = /^\/t\/l\/([A-Za-z0-9_-]+)$/.exec(path);
      if (list) return listUnsubscribe(list[1]!, req);
      const m = /^\/t\/([ocu])\/([A-Za-z0-9_-]+)$/.exec(path);
      const kind = m ? KINDS[m[1]!] : undefined;
      if (!m || !kind) return notFound();
      if (kind === "unsubscribe") return unsubscribe(m[2]!, req);
      const r = await record(kind, m[2]!, req);
      if (!r) return notFound();
      if (kind === "open") return new Response(PIXEL, { headers: { "content-type": "image/gif", ...NO_STORE } });
      return new Response(null, { status: 302, headers: { location: r.payload.url ?? "/", ...NO_STORE } });
    },
  };
}
