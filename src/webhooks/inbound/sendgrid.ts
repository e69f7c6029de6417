// SendGrid Inbound Parse: one multipart/form-data post per message, parsed (text, html,
// attachmentN with attachment-info) or raw (`email`) when the hostname's setting says send_raw.
import { formPost, type Field, type InboundPost } from "./body.ts";
import type { ParsedMail, ReceivedEnvelope } from "./received.ts";

export interface ParseSetting { hostname: string; url: string; spamCheck: boolean; sendRaw: boolean }
export interface SpamVerdict { score: string; report: string }

/** `{@example.com : pass}` as SendGrid writes its dkim field. */
const dkimField = (env: ReceivedEnvelope) => `{${env.auth.dkim.map((d) => `@${d.domain} : ${d.result}`).join(", ")}}`;

function headerText(raw: Uint8Array): string {
  const text = new TextDecoder().decode(raw.subarray(0, Math.min(raw.length, 256 * 1024)));
  const end = text.search(/\r?\n\r?\n/);
  return (end < 0 ? text : text.slice(0, end + 1)).replace(/\r\n/g, "\n");
}

export async function sendgridParse(env: ReceivedEnvelope, mail: ParsedMail, raw: Uint8Array, setting: ParseSetting, spam: SpamVerdict | null): Promise<InboundPost> {
  const common: Field[] = [
    ["dkim", dkimField(env)], ["to", mail.to], ["from", mail.from], ["subject", mail.subject], ["sender_ip", env.remoteIp],
    ["envelope", JSON.stringify({ to: env.rcptTo, from: env.mailFrom })], ["SPF", env.auth.spf || "none"],
  ];
  if (mail.cc) common.push(["cc", mail.cc]);
  if (spam) common.push(["spam_score", spam.score], ["spam_report", spam.report]);
  if (setting.sendRaw) {
    return formPost([...common, ["email", new TextDecoder().decode(raw)],
      ["charsets", JSON.stringify({ to: "UTF-8", from: "UTF-8", subject: "UTF-8" })]], true);
  }
  const info: Record<string, Record<string, string>> = {};
  const cids: Record<string, string> = {};
  const files: Field[] = mail.attachments.map((a, i) => {
    const key = `attachment${i + 1}`;
    info[key] = { filename: a.filename, name: a.filename, type: a.contentType, ...(a.contentId ? { "content-id": a.contentId } : {}) };
    if (a.contentId) cids[a.contentId] = key;
    return [key, { filename: a.filename, contentType: a.contentType, data: a.data }];
  });
  const fields: Field[] = [["headers", headerText(raw)], ...common, ["text", mail.text], ["html", mail.html],
    ["attachments", String(files.length)], ["charsets", JSON.stringify({ to: "UTF-8", html: "UTF-8", subject: "UTF-8", from: "UTF-8", text: "UTF-8" })]];
  if (files.length) fields.push(["attachment-info", JSON.stringify(info)], ["content-ids", JSON.stringify(cids)]);
  return formPost([...fields, ...files], true);
}
