// The console's page, style sheet and scripts, embedded in the binary as text (imports with
// `type: "text"` are bundled by `bun build --compile`), served from /ui and /ui/assets/ with a
// strict CSP: no inline script, nothing from any other origin.
import page from "../../ui/index.html" with { type: "text" };
import css from "../../ui/console.css" with { type: "text" };
// The browser scripts are plain JavaScript, not part of the TypeScript program: only their text is imported.
// @ts-ignore
import api from "../../ui/js/api.js" with { type: "text" };
// @ts-ignore
import dom from "../../ui/js/dom.js" with { type: "text" };
// @ts-ignore
import app from "../../ui/js/app.js" with { type: "text" };
// @ts-ignore
import domains from "../../ui/js/domains.js" with { type: "text" };
// @ts-ignore
import keys from "../../ui/js/keys.js" with { type: "text" };
// @ts-ignore
import webhooks from "../../ui/js/webhooks.js" with { type: "text" };
// @ts-ignore
import suppressions from "../../ui/js/suppressions.js" with { type: "text" };
// @ts-ignore
import messages from "../../ui/js/messages.js" with { type: "text" };
// @ts-ignore
import stats from "../../ui/js/stats.js" with { type: "text" };
// @ts-ignore
import queue from "../../ui/js/queue.js" with { type: "text" };
// @ts-ignore
import reports from "../../ui/js/reports.js" with { type: "text" };
// @ts-ignore
import audit from "../../ui/js/audit.js" with { type: "text" };
// @ts-ignore
import team from "../../ui/js/team.js" with { type: "text" };
// @ts-ignore
import health from "../../ui/js/health.js" with { type: "text" };
// @ts-ignore
import tenants from "../../ui/js/tenants.js" with { type: "text" };

const JS = "text/javascript; charset=utf-8";
const SCRIPTS: Record<string, unknown> = { api, dom, app, domains, keys, webhooks, suppressions, messages, stats, queue, reports, audit, team, health, tenants };

const ASSETS = new Map<string, [string, string]>([
  ["/ui", [page as unknown as string, "text/html; charset=utf-8"]],
  ["/ui/assets/console.css", [css as unknown as string, "text/css; charset=utf-8"]],
  ...Object.entries(SCRIPTS).map(([name, text]): [string, [string, string]] => [`/ui/assets/${name}.js`, [text as string, JS]]),
]);

const SECURITY_HEADERS = {
  "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer", "cache-control": "no-store",
};

/** The embedded file at `path`, or null. */
export function asset(path: string): Response | null {
  const found = ASSETS.get(path);
  return found ? new Response(found[0], { headers: { "content-type": found[1], ...SECURITY_HEADERS } }) : null;
}
