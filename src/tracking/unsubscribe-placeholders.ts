// The unsubscribe placeholders a body (or header) may hold, and what each becomes per recipient:
// Mailgun's %…_unsubscribe_url% links and %…_unsubscribe_email% mailboxes, SendGrid's <%asm_…%>
// tags. The links' tokens are signed in rewrite.ts; this file knows the names and their scopes.

/** The rendered parts a placeholder can sit in. */
interface Rendered { html?: string; text?: string; headers: Record<string, string> }

/** Mailgun's unsubscribe mailbox variables, with the mail each one leaves. */
export const UNSUBSCRIBE_EMAIL_PLACEHOLDERS: [string, "all" | "tags"][] = [["%unsubscribe_email%", "all"], ["%tag_unsubscribe_email%", "tags"]];

/**
 * Fills the unsubscribe mailbox variables in the bodies and header values. In List-Unsubscribe the
 * address must be a <mailto:…> URI (RFC 2369): written bare, bracketed or with mailto:, it becomes one.
 */
export function fillUnsubscribeEmails(out: Rendered, addressOf: (scope: "all" | "tags") => string) {
  for (const [placeholder, scope] of UNSUBSCRIBE_EMAIL_PLACEHOLDERS) {
    const has = (v?: string) => v?.includes(placeholder) ?? false;
    const inHeaders = Object.entries(out.headers).filter(([, v]) => has(v));
    if (!has(out.html) && !has(out.text) && !inHeaders.length) continue;
    const address = addressOf(scope);
    if (has(out.html)) out.html = out.html!.replaceAll(placeholder, escapeAttribute(address));
    if (has(out.text)) out.text = out.text!.replaceAll(placeholder, address);
    for (const [name, value] of inHeaders) {
      out.headers[name] = name.toLowerCase() === "list-unsubscribe"
        ? value.replace(new RegExp(`<?(?:mailto:)?${placeholder}>?`, "gi"), `<mailto:${address}>`) : value.replaceAll(placeholder, address);
    }
  }
}

/** Where a recipient's body may ask for their unsubscribe link (Mailgun's variable name). */
export const UNSUBSCRIBE_PLACEHOLDER = "%unsubscribe_url%";
/** An unsubscribe token whose url is this unsubscribes only from the message's tags (Mailgun's tag unsubscribe). */
export const TAG_UNSUBSCRIBE_SCOPE = "tag";
/** An unsubscribe token whose url is this unsubscribes from all mail even when the message has an unsubscribe group. */
export const GLOBAL_UNSUBSCRIBE_SCOPE = "global";
/** A preferences link's token url: this prefix, then the offered group ids joined by commas. */
export const PREFERENCES_SCOPE = "preferences:";
export const preferencesScope = (groups: number[] = []) => PREFERENCES_SCOPE + groups.join(",");
/** SendGrid's substitution tags, as written and as an HTML editor escapes them. */
const sendgridTags = (name: string, scope: string | undefined): [string, string | undefined][] =>
  [[`<%${name}%>`, scope], [`&lt;%${name}%&gt;`, scope]];
/** SendGrid's preferences link tag (also what {{{unsubscribe_preferences}}} becomes in a dynamic template). */
export const PREFERENCES_PLACEHOLDER = "<%asm_preferences_raw_url%>";
export const UNSUBSCRIBE_PLACEHOLDERS: [string, string | undefined][] = [
  [UNSUBSCRIBE_PLACEHOLDER, undefined], ["%mailing_list_unsubscribe_url%", undefined], ["%tag_unsubscribe_url%", TAG_UNSUBSCRIBE_SCOPE],
  // The group link unsubscribes from the message's unsubscribe group (the default for its mail).
  ...sendgridTags("asm_group_unsubscribe_raw_url", undefined), ...sendgridTags("asm_global_unsubscribe_raw_url", GLOBAL_UNSUBSCRIBE_SCOPE),
  ...sendgridTags("asm_preferences_raw_url", PREFERENCES_SCOPE),
];


export function escapeAttribute(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
