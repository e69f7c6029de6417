// The same bounce in the layouts real MTAs give it: CRLF line ends, its text parts re-encoded base64 or
// quoted-printable (as Exchange and Gmail send them), or its plain text sent as HTML alone (as webmail and some
// Exchange set-ups do), or its delivery-status part as RFC 6533's message/global-delivery-status in base64 (which that
// type, unlike message/delivery-status, may be), or its plain text wrapped at 76 columns with Postfix's four-space
// continuation, or unwrapped (Postfix's continuations joined, as MTAs that never wrap write them). Only the outer
// message's own parts change; a returned message inside stays as it was.

export type Layout = "crlf" | "base64" | "quoted-printable" | "html" | "global-base64" | "wrapped" | "unwrapped";

export function relayout(raw: Buffer, layout: Layout): Buffer {
  const text = raw.toString("latin1");
  if (layout === "crlf") return Buffer.from(text.replace(/\r?\n/g, "\r\n"), "latin1");
  // A file that opens with an empty line or one of spaces (a mailbox export's) has no header to put an encoding in.
  return /^[ \t]*\r?\n/.test(text) ? raw : Buffer.from(recode(text, layout), "latin1");
}

/** One MIME entity: its parts recursively when multipart, its body re-encoded when it is text not yet encoded. */
function recode(entity: string, layout: Exclude<Layout, "crlf">): string {
  // A part with no header lines starts with its blank line.
  const split = /^\r?\n/.exec(entity) ?? /\r?\n\r?\n/.exec(entity);
  if (!split) return entity;
  const head = entity.slice(0, split.index), body = entity.slice(split.index + split[0].length);
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  const contentType = /^content-type:\s*([^;\s]+)([^\n]*)/im.exec(unfolded);
  const type = (contentType?.[1] ?? "text/plain").toLowerCase();
  if (type.startsWith("multipart/")) {
    const boundary = /boundary\s*=\s*"?([^";\r\n]+)"?/i.exec(contentType![2]!)?.[1];
    if (!boundary) return entity;
    const pieces = body.split(new RegExp(`(^--${boundary.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?:--)?[ \\t]*\\r?$)`, "m"));
    // Odd pieces are the boundary lines; the parts between them start with the boundary line's own line end.
    return head + split[0] + pieces.map((p, i) => {
      if (i % 2 === 1 || i === 0 || i === pieces.length - 1) return p;
      const eol = /^\r?\n/.exec(p)?.[0] ?? "";
      return eol + recode(p.slice(eol.length), layout);
    }).join("");
  }
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(unfolded)?.[1]?.toLowerCase();
  if (layout === "global-base64") {
    if (!/^message\/(global-)?delivery-status$/.test(type) || (encoding && encoding !== "7bit" && encoding !== "8bit")) return entity;
    const relabelled = head.replace(/^content-transfer-encoding:.*(\r?\n)?/im, "").replace(/\s*$/, "")
      .replace(/^(content-type:\s*)message\/(global-)?delivery-status/im, "$1message/global-delivery-status");
    return `${relabelled}\nContent-Transfer-Encoding: base64\n\n${Buffer.from(body, "latin1").toString("base64").replace(/.{76}/g, "$&\n")}\n`;
  }
  if (!type.startsWith("text/") || (encoding && encoding !== "7bit" && encoding !== "8bit")) return entity;
  const rest = head.replace(/^content-transfer-encoding:.*(\r?\n)?/im, "").replace(/\s*$/, "");
  if (layout === "wrapped" || layout === "unwrapped") {
    if (type !== "text/plain") return entity;
    return head + split[0] + (layout === "wrapped" ? wrap(body) : unwrap(body));
  }
  if (layout === "html") {
    if (type !== "text/plain") return entity;
    const withType = rest && /^content-type:/im.test(rest) ? rest.replace(/^(content-type:\s*)text\/plain/im, "$1text/html")
      : `${rest ? rest + "\n" : ""}Content-Type: text/html`;
    return `${withType}\n\n${asHtml(body)}`;
  }
  const bytes = Buffer.from(body, "latin1");
  const encoded = layout === "base64" ? bytes.toString("base64").replace(/.{76}/g, "$&\n") : quotedPrintable(bytes);
  return `${rest ? rest + "\n" : ""}Content-Transfer-Encoding: ${layout}\n\n${encoded}\n`;
}

/** Lines over 76 characters cut at a space, each later piece indented by four, as Postfix writes its notices. */
function wrap(body: string): string {
  return body.split("\n").map((line) => {
    const eol = line.endsWith("\r") ? "\r" : "";
    let rest = line.slice(0, line.length - eol.length);
    const pieces: string[] = [];
    for (let width = 76, cut = rest.lastIndexOf(" ", width); rest.length > width && cut > 0; width = 72, cut = rest.lastIndexOf(" ", width)) {
      pieces.push(rest.slice(0, cut));
      rest = rest.slice(cut + 1);
    }
    return [...pieces, rest].join(`${eol}\n    `) + eol;
  }).join("\n");
}

/** A line indented by four spaces after a line with words is that line's continuation: joined to it. */
function unwrap(body: string): string {
  const out: string[] = [];
  for (const line of body.split(/\r?\n/)) {
    if (/^ {4}\S/.test(line) && out.length && out[out.length - 1]!.trim()) out[out.length - 1] += " " + line.trim();
    else out.push(line);
  }
  return out.join("\n");
}

/** Each line a paragraph, an empty one for a blank line, in an indented document with a style sheet. */
function asHtml(body: string): string {
  const escape = (t: string) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/'/g, "&#39;");
  const lines = body.split(/\r?\n/).map((line) => `  <p>${escape(line) || "&nbsp;"}</p>`);
  return `<html><head><style>p { margin: 0 }</style></head>\n<body>\n${lines.join("\n")}\n</body></html>\n`;
}

/** RFC 2045 §6.7: printable ASCII as is, the rest as =XX, lines soft-broken at 76. */
function quotedPrintable(bytes: Buffer): string {
  const out: string[] = [];
  let line = "";
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === 13 && bytes[i + 1] === 10) continue;
    if (c === 10) { out.push(line.endsWith(" ") ? line.slice(0, -1) + "=20" : line); line = ""; continue; }
    const t = (c >= 33 && c <= 126 && c !== 61) || c === 32 ? String.fromCharCode(c) : "=" + c.toString(16).toUpperCase().padStart(2, "0");
    if (line.length + t.length > 75) { out.push(line + "="); line = ""; }
    line += t;
  }
  out.push(line);
  return out.join("\n");
}
