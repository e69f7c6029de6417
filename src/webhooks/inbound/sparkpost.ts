// SparkPost relay webhooks: a JSON batch of msys.relay_message objects, with the webhook's
// auth_token in X-MessageSystems-Webhook-Token.
import { jsonPost, type InboundPost } from "./body.ts";
import type { ParsedMail, ReceivedEnvelope } from "./received.ts";

export interface RelayWebhook { id: string; name: string; target: string; authToken: string; matchDomain: string; customerId: string }

function rfc822(raw: Uint8Array): { text: string; base64: boolean } {
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(raw), base64: false };
  } catch {
    return { text: Buffer.from(raw).toString("base64"), base64: true };
  }
}

/** What the first `<…>` holding something encloses, else `from` itself. Searched by hand: the
 *  regex /<([^>]+)>/ scanned to the end from every `<` of a From with no `>`. */
function bare(from: string): string {
  for (let open = from.indexOf("<"); open >= 0; open = from.indexOf("<", open + 1)) {
    const close = from.indexOf(">", open + 1);
    if (close < 0) break;
    if (close > open + 1) return from.slice(open + 1, close);
  }
  return from;
}

export function relayMessage(env: ReceivedEnvelope, mail: ParsedMail, raw: Uint8Array, recipient: string, hook: RelayWebhook): Record<string, unknown> {
  const body = rfc822(raw);
  return {
    msys: {
      relay_message: {
        content: {
          email_rfc822: body.text, email_rfc822_is_base64: body.base64,
          headers: mail.headerLines.map(([k, v]) => ({ [k]: v })),
          html: mail.html, subject: mail.subject, text: mail.text, to: mail.to ? mail.to.split(/,\s*/) : [recipient],
        },
        customer_id: hook.customerId, friendly_from: bare(mail.from) || env.mailFrom, msg_from: env.mailFrom,
        rcpt_to: recipient, webhook_id: hook.id, protocol: "smtp",
        ...(mail.parseNote ? { parse_note: mail.parseNote } : {}),
      },
    },
  };
}

export const relayBatch = (messages: Record<string, unknown>[], hook: RelayWebhook): InboundPost =>
  jsonPost(messages, hook.authToken ? { "x-messagesystems-webhook-token": hook.authToken } : {});
