// The console's shell: sign-in and sign-out, the navigation, and a hash router that draws one
// page at a time into #view. The session lives on the server; this page holds only its CSRF token.
import { get, post, del, setSession, whenSignedOut } from "./api.js";
import { h, errorText } from "./dom.js";
import { domainsPage, domainPage } from "./domains.js";
import { keysPage, credentialsPage } from "./keys.js";
import { webhooksPage } from "./webhooks.js";
import { suppressionsPage } from "./suppressions.js";
import { messagesPage, messagePage } from "./messages.js";
import { statsPage } from "./stats.js";
import { queuePage } from "./queue.js";
import { reportsPage } from "./reports.js";
import { auditPage } from "./audit.js";
import { teamPage, securityPage, acceptPage, ssoCodePage } from "./team.js";
import { tenantsPage, drawSwitcher } from "./tenants.js";
import { healthPage } from "./health.js";

const PAGES = {
  domains: (ctx, rest) => (rest.length ? domainPage(ctx, rest[0]) : domainsPage(ctx)),
  keys: keysPage, credentials: credentialsPage, webhooks: webhooksPage, suppressions: suppressionsPage,
  messages: (ctx, rest) => (rest.length >= 2 ? messagePage(ctx, rest[0], rest[1]) : messagesPage(ctx)),
  stats: statsPage, queue: queuePage, reports: reportsPage, audit: auditPage, team: teamPage, security: securityPage,
  health: healthPage, tenants: tenantsPage,
};

const $ = (id) => document.getElementById(id);
let session = null;
/** A single sign-on waits for this user's TOTP code (the server said so). */
let pendingCode = false;

function showSignedIn(s) {
  session = s;
  setSession(s);
  $("signin").hidden = Boolean(s);
  $("nav").hidden = !s;
  $("signout").hidden = !s;
  $("who").textContent = !s ? "" : (s.userId ? `${s.role}` : s.kind === "account" ? "account key" : `domain key · ${s.domain}`)
    + (s.readOnly ? ` · tenant ${s.tenant} suspended: read-only` : "");
  // Team: owners, admins and all-rights account keys (the server decides; this only hides a page that would refuse).
  $("nav-team").hidden = !s || (s.userId ? !["owner", "admin"].includes(s.role) : s.kind !== "account");
  $("nav-security").hidden = !s || !s.userId;
  $("nav-audit").hidden = !s || s.kind !== "account";
  // Tenants: owners and admins of every tenant, and the primary's account keys (the server refuses anyone else).
  $("nav-tenants").hidden = !s || (s.userId ? !(s.switcher && ["owner", "admin"].includes(s.role)) : s.kind !== "account" || s.tenant !== 0);
  drawSwitcher($("tenant-switch"), s, refresh).catch(() => { $("tenant-switch").hidden = true; });
  if (!s) $("view").replaceChildren();
}

/** After the switcher's choice: the session as the server now sees it, and the page drawn again for that tenant. */
async function refresh() {
  const s = await get("/session");
  showSignedIn(s.signedIn ? s : null);
  await route();
}

/** Signed in by a form (a key, a password, a single sign-on's code): to the page asked for, or Security when TOTP must be set up. */
async function enter(s) {
  pendingCode = false;
  showSignedIn(s);
  if (s.mustEnrol) location.hash = "#/security";
  else if (!location.hash || location.hash === "#/" || location.hash === "#/sso-code") location.hash = "#/domains"; else await route();
  $("main").focus();
}

async function route() {
  if (!session && (location.hash === "#/sso-code" || pendingCode)) { $("signin").hidden = true; ssoCodePage($("view"), enter); return; }
  const invitation = /^#\/accept\/([^/]+)$/.exec(location.hash);
  if (invitation) { $("signin").hidden = true; acceptPage($("view"), decodeURIComponent(invitation[1])); return; }
  if (!session) { $("signin").hidden = false; $("view").replaceChildren(); return; }
  const [page, ...rest] = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  const name = PAGES[page] ? page : "domains";
  for (const a of document.querySelectorAll("#nav a")) {
    if (a.dataset.page === name) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
  }
  const view = h("div", { class: "page" });
  $("view").replaceChildren(view);
  const ctx = { session, view, go: (hash) => { location.hash = hash; } };
  try {
    await PAGES[name](ctx, PAGES[page] ? rest : []);
  } catch (err) {
    view.append(errorText(err));
  }
}

async function signIn(ev) {
  ev.preventDefault();
  const input = $("signin-key");
  $("signin-error").textContent = "";
  try {
    const s = await post("/session", { key: input.value.trim() });
    input.value = "";
    showSignedIn(s);
    if (!location.hash || location.hash === "#/") location.hash = "#/domains"; else await route();
    $("main").focus();
  } catch (err) {
    $("signin-error").textContent = err.status === 401 ? "That key is unknown, malformed or revoked." : err.message;
  }
}

/** Email and password; when the server asks for a code (field "code"), the code field appears. */
async function signInUser(ev) {
  ev.preventDefault();
  const code = $("signin-code");
  $("signin-user-error").textContent = "";
  try {
    const s = await post("/session", { email: $("signin-email").value.trim(), password: $("signin-password").value, code: code.value.trim() || undefined });
    $("signin-password").value = ""; code.value = ""; $("signin-code-field").hidden = true;
    showSignedIn(s);
    if (s.mustEnrol) location.hash = "#/security";
    else if (!location.hash || location.hash === "#/") location.hash = "#/domains"; else await route();
    $("main").focus();
  } catch (err) {
    if (err.field === "code") { $("signin-code-field").hidden = false; code.focus(); }
    $("signin-user-error").textContent = err.message;
  }
}

async function signOut() {
  try { await del("/session"); } catch { /* the session is gone either way */ }
  showSignedIn(null);
  location.hash = "";
  $("signin-key").focus();
}

whenSignedOut(() => { showSignedIn(null); $("signin").hidden = false; });

async function start() {
  $("signin-form").addEventListener("submit", signIn);
  $("signin-user-form").addEventListener("submit", signInUser);
  $("signout").addEventListener("click", signOut);
  window.addEventListener("hashchange", route);
  try {
    const s = await get("/session");
    showSignedIn(s.signedIn ? s : null);
    pendingCode = Boolean(s.ssoCode);
    if (!s.signedIn) $("signin").hidden = false;
    $("signin-sso").hidden = !s.oidc;
    await route();
  } catch {
    showSignedIn(null);
    $("signin").hidden = false;
  }
}

start();
