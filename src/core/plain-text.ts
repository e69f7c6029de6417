// A text part made from HTML (SendGrid's generate_plain_content, Mailgun's t:text): scripts,
// styles and tags out, line breaks for block ends, the common entities decoded.

export function plainFromHtml(html: string): string {
  return html
    .replace(/<(script|style|head)[\s\S]*?<\/\1>/gi, "")
    .replace(/<br\s*\/?>/gi, "\n").replace(/<\/(p|div|h[1-6]|li|tr)>/gi, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&nbsp;/g, " ").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, "\"").replace(/&#(39|x27);/g, "'").replace(/&#x3D;/g, "=").replace(/&#x60;/g, "`").replace(/&#x2F;/g, "/").replace(/&amp;/g, "&")
    .replace(/[ \t]+\n/g, "\n").replace(/\n{3,}/g, "\n\n").trim();
}
