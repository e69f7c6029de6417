// The request fields of the vendor surfaces' main routes, for their OpenAPI documents (build.ts).
// Keyed by "METHOD /openapi/path"; the full rules of each field are on the docs/api/<surface>.md page.
export interface Field { type: string | string[]; required?: boolean; description: string }
export interface RouteFields { summary: string; success?: string; media: string[]; fields: Record<string, Field> }

const JSON_BODY = ["application/json"];
const FORM = ["multipart/form-data", "application/x-www-form-urlencoded"];
const QUERY: string[] = [];
const s = (description: string, required = false): Field => ({ type: "string", description, ...(required ? { required } : {}) });
const o = (description: string, required = false): Field => ({ type: "object", description, ...(required ? { required } : {}) });
const a = (description: string, required = false): Field => ({ type: "array", description, ...(required ? { required } : {}) });
const n = (description: string): Field => ({ type: "integer", description });

const methodNotAllowed: RouteFields = { summary: "not allowed: only POST sends (405 in SendGrid's shape)", media: QUERY, fields: {} };

const sendgrid: Record<string, RouteFields> = {
  "POST /v3/mail/send": { summary: "send mail (one message per personalization)", success: "202, empty body, X-Message-Id: the send's id", media: JSON_BODY, fields: {
    personalizations: a("1–1000 of {to, cc, bcc, subject, headers, substitutions, dynamic_template_data, custom_args, send_at}", true),
    from: o("{email, name}; on the key's domain", true), reply_to: o("{email, name}"), reply_to_list: a("[{email, name}]"),
    subject: s("default subject"), content: a("[{type: text/plain | text/html, value}]"), attachments: a("[{content (base64), filename, type, disposition, content_id}]"),
    template_id: s("a stored template (d-…)"), headers: o("custom headers"), categories: a("tags, ≤ 10"), custom_args: o("string values, in every event"),
    send_at: n("unix seconds, ≤ 72 h ahead"), batch_id: s("a scheduled-send batch"), asm: o("{group_id, groups_to_display}"),
    mail_settings: o("sandbox_mode, bypass_* …"), tracking_settings: o("click_tracking, open_tracking, subscription_tracking"),
  } },
  "GET /v3/mail/send": methodNotAllowed, "PUT /v3/mail/send": methodNotAllowed, "PATCH /v3/mail/send": methodNotAllowed, "DELETE /v3/mail/send": methodNotAllowed,
  "GET /v3/suppression/{list}": { summary: "a suppression list (bounces, blocks, invalid_emails, spam_reports, unsubscribes)", media: QUERY, fields: {
    start_time: n("unix seconds"), end_time: n("unix seconds"), limit: n("page size"), offset: n("page start"), email: s("one address"),
  } },
  "GET /v3/messages": { summary: "Email Activity: a send's recipients by msg_id (its X-Message-Id, or one event's sg_message_id)", success: "200 {messages: [{msg_id, from_email, to_email, subject, status, …}]}", media: QUERY, fields: {
    query: s('msg_id="…" [AND to_email|from_email|subject|status|outbound_ip="…"]', true), limit: n("≤ 1000, default 10"),
  } },
  "POST /v3/validations/email": { summary: "validate one address", media: JSON_BODY, fields: { email: s("the address", true), source: s("free text") } },
};

const mailgun: Record<string, RouteFields> = {
  "POST /v3/{domain}/messages": { summary: "send a message", success: "200 {id, message: \"Queued. Thank you.\"}", media: FORM, fields: {
    from: s("Name <addr> or addr, of the domain", true), to: s("repeated and/or comma lists, ≤ 1000 in all", true), cc: s("as to"), bcc: s("as to"),
    subject: s("the subject"), text: s("plain part"), html: s("HTML part"), "amp-html": s("AMP part"), attachment: s("file parts"), inline: s("file parts, cid:filename"),
    template: s("a stored template"), "t:version": s("template version"), "t:variables": s("JSON"), "o:tag": s("repeated, ≤ 10"),
    "o:testmode": s("yes: recorded, never sent"), "o:tracking": s("yes | no | htmlonly"), "o:tracking-opens": s("yes | no"), "o:tracking-clicks": s("yes | no | htmlonly"),
    "o:deliverytime": s("RFC 2822 date, ≤ 3 days ahead"), "h:<Name>": s("a custom header"), "v:<name>": s("a user variable"),
    "recipient-variables": s("JSON object per recipient: batch sending"),
  } },
  "POST /v3/{domain}/messages.mime": { summary: "send a raw MIME message", media: ["multipart/form-data"], fields: {
    to: s("recipients", true), message: s("the MIME file part", true), "o:tag": s("repeated"), "o:testmode": s("yes | no"), "v:<name>": s("a user variable"),
  } },
  "GET /v3/{domain}/events": { summary: "events, newest first unless ascending", success: "200 {items, paging}", media: QUERY, fields: {
    begin: s("RFC 2822 date or unix seconds"), end: s("as begin"), ascending: s("yes | no"), limit: n("≤ 300"),
    event: s("a type or an OR expression"), recipient: s("an address"), tags: s("a tag or AND/OR expression"), "message-id": s("a Message-ID"), severity: s("permanent | temporary"),
  } },
  "POST /v3/domains/{domain}/webhooks": { summary: "create a webhook", media: FORM, fields: {
    id: s("accepted, delivered, opened, clicked, unsubscribed, complained, permanent_fail, temporary_fail (and aliases)", true), url: s("repeated, ≤ 3", true),
  } },
  "POST /v4/domains": { summary: "create a domain (DKIM keys generated)", media: FORM, fields: {
    name: s("the domain", true), wildcard: s("true | false"), smtp_password: s("sets postmaster@<domain>'s SMTP credential"), data_location: s("the zone"),
  } },
  "POST /v3/{domain}/bounces": { summary: "add bounces", media: [...FORM, "application/json"], fields: { address: s("the address", true), code: s("SMTP code"), error: s("the reason") } },
  "GET /v4/address/validate": { summary: "validate one address", media: QUERY, fields: { address: s("the address", true), provider_lookup: s("true | false") } },
};

const sparkpost: Record<string, RouteFields> = {
  "POST /api/v1/transmissions": { summary: "send a transmission", success: "200 {results: {id, total_accepted_recipients, total_rejected_recipients}}", media: JSON_BODY, fields: {
    recipients: { type: ["array", "object"], description: "[{address, substitution_data, metadata, tags}] or {list_id}", required: true },
    content: o("{from, subject, text, html, amp_html, reply_to, headers, attachments, inline_images} or {template_id} or {email_rfc822}", true),
    options: o("start_time, open_tracking, click_tracking, transactional, sandbox, ip_pool"), campaign_id: s("≤ 64 bytes"), description: s("≤ 1024 bytes"),
    metadata: o("in every event"), substitution_data: o("template data"), return_path: s("ignored: VERP is postern's"),
  } },
  "POST /api/v1/sending-domains": { summary: "create a sending domain (DKIM keys generated)", media: JSON_BODY, fields: { domain: s("the domain", true) } },
  "POST /api/v1/webhooks": { summary: "create a webhook (its target is tested first)", media: JSON_BODY, fields: {
    name: s("≤ 1024 bytes", true), target: s("http(s) URL", true), events: a("SparkPost event types", true), auth_type: s("none | basic | oauth2"),
    auth_credentials: o("{username, password} for basic"), auth_request_details: o("oauth2 token request"), auth_token: s("legacy X-MessageSystems-Webhook-Token"),
    custom_headers: o("headers sent with every batch"), active: { type: "boolean", description: "default true" },
  } },
  "GET /api/v1/transmissions": { summary: "scheduled transmissions", media: QUERY, fields: { campaign_id: s("only this campaign"), template_id: s("only this template") } },
  "GET /api/v1/events/message": { summary: "message events", success: "200 {results, total_count, links}", media: QUERY, fields: {
    from: s("ISO 8601"), to: s("ISO 8601"), events: s("comma list of types"), recipients: s("comma list"), campaigns: s("comma list"), per_page: n("≤ 10000"), cursor: s("the next page"),
  } },
  "GET /api/v1/recipient-validation/single/{address}": { summary: "validate one address", media: QUERY, fields: {} },
};

export const FIELDS: Record<"sendgrid" | "mailgun" | "sparkpost", Record<string, RouteFields>> = { sendgrid, mailgun, sparkpost };
