// Reply code and RFC 3463 enhanced status code as failures really write them: "550 5.1.1",
// "550-5.1.1", "550 550 5.1.1" (a relay quoting the reply after its own code), "#5.1.1" (qmail,
// Exchange), "5.1.01" (leading zeros), "smtp; 550 ..." (DSN diagnostic type), and an enhanced
// code whose class contradicts the reply ("550 4.2.2"): the reply's class wins, the detail stays.

export interface Codes {
  /** SMTP reply code (RFC 5321 §4.2), 400-599. */
  code?: number;
  /** RFC 3463 class.subject.detail without leading zeros, its class agreeing with `code`. */
  enhancedCode?: string;
}

const ENHANCED_RE = /(?<![\w.])#?([245])\.(\d{1,3})\.(\d{1,3})(?![\d.]|\.\d)/g;
/** A reply code at the start, possibly repeated ("550 550", "550-550") or after a DSN type. */
const LEADING_REPLY_RE = /^\s*(?:[a-z][\w-]*\s*;\s*)?(?:#\s*)?([45]\d\d)(?=[\s\-:;,.)#]|$)/i;
/** A reply code in running text ("host said: 550 ...", "(554.30)" is not one; 57x as SMTP_CODE_RE in reply-lines.ts). */
const REPLY_IN_TEXT_RE = /(?:^|[\s:;('"[<])([45][0-5]\d|57\d)(?=[\s\-:;]|$)(?![-]?\d)/;

/** Normalises "5.01.1" → "5.1.1". */
export const normalizeEnhanced = (c: string) => c.replace(/^#/, "").split(".").map((p) => String(Number(p))).join(".");

/** The most specific enhanced code in `text`: the first that is not a generic x.0.0, else the first. */
function findEnhanced(text: string): string | undefined {
  const all = [...text.matchAll(ENHANCED_RE)].map((m) => normalizeEnhanced(`${m[1]}.${m[2]}.${m[3]}`));
  return all.find((c) => !c.endsWith(".0.0")) ?? all[0];
}

/** Exchange Online's front end quoting the reply of the server behind it, which is the failure: "550 5.7.0 Proxy
 *  session setup failed on Frontend with '554 5.4.4 SMTPSEND.DNS.NonExistentDomain; nonexistent domain'". */
const PROXIED_REPLY_RE = /proxy session setup failed on frontend with '([45]\d\d)[ -]([45]\.\d{1,3}\.\d{1,3})\b/i;

/** Reads the codes of a failure from what is known: given codes win when well-formed (a proxied reply wins over them). */
export function readCodes(input: { code?: number; enhancedCode?: string; text?: string }): Codes {
  const text = input.text ?? "";
  const proxied = PROXIED_REPLY_RE.exec(text);
  if (proxied && proxied[1]![0] === proxied[2]![0]) return { code: Number(proxied[1]), enhancedCode: normalizeEnhanced(proxied[2]!) };
  let code = input.code !== undefined && input.code >= 400 && input.code < 600 ? input.code : undefined;
  code ??= Number(LEADING_REPLY_RE.exec(text)?.[1] ?? REPLY_IN_TEXT_RE.exec(text)?.[1]) || undefined;
  const given = input.enhancedCode && /^#?[245]\.\d{1,3}\.\d{1,3}$/.test(input.enhancedCode.trim()) ? normalizeEnhanced(input.enhancedCode.trim()) : undefined;
  // A generic given code (Exim's Status 5.0.0) yields to a specific one in the text.
  const fromText = findEnhanced(text);
  let enhancedCode = given && !(given.endsWith(".0.0") && fromText && !fromText.endsWith(".0.0")) ? given : (fromText ?? given);
  if (enhancedCode?.startsWith("2.")) enhancedCode = undefined; // a success code in a failure is noise
  if (code !== undefined && enhancedCode && enhancedCode[0] !== String(code)[0]) {
    enhancedCode = `${String(code)[0]}${enhancedCode.slice(1)}`;
  }
  return { ...(code !== undefined ? { code } : {}), ...(enhancedCode ? { enhancedCode } : {}) };
}
