// How sisimai decides a bounce's reason, on its own data: the phrase lists of its reason modules
// and its status table (data/sisimai-reasons.json, extracted by scripts/sisimai-go-reasons.py from
// go-sisimai reason/why-*.go and smtp/status/lib.go, BSD-2; go-sisimai is the port whose tests
// label the corpus), tried in the order and under the conditions of go-sisimai reason/find.go
// (`Find`, `anotherone`), reason/lib.go (ClassOrder, Retry) and each reason's `ProbesInto` (the
// same as rb-sisimai 5.1.0 lib/sisimai/reason.rb and the modules' `true`, where they agree).
// The code here is postern's; only the lists are sisimai's. Pure.
import reasonData from "./data/sisimai-reasons.json" with { type: "json" };

type Lists = { Index?: string[]; Pairs?: string[][]; IsNot?: string[] };
const DATA = reasonData as unknown as { reasons: Record<string, Lists>; status: Record<string, string> };

export interface SisimaiInput {
  /** The DSN's Status field (or undefined), and the enhanced code found in the diagnostic text. */
  status?: string;
  statusInText?: string;
  reply?: number;
  /** The diagnostic text (Diagnostic-Code or the MTA's sentence). */
  text: string;
  /** "RCPT", "DATA"... or "" when the report names none. */
  command: string;
  /** The Diagnostic-Code type ("smtp", "x-unix"...). */
  diagnosticType?: string;
  delayed?: boolean;
}

/** sisimai's String.aligned: every piece found, in order, each after the previous. */
function aligned(text: string, pieces: string[]): boolean {
  let from = 0;
  for (const p of pieces) {
    const at = text.indexOf(p, from);
    if (at < 0) return false;
    from = at + p.length;
  }
  return true;
}

/** A reason module's `match`: its Index phrases, its aligned Pairs, none of its IsNot phrases. */
export function matches(reason: string, text: string): boolean {
  const l = DATA.reasons[reason];
  if (!l || !text) return false;
  if (l.IsNot?.some((p) => text.includes(p))) return false;
  return Boolean(l.Index?.some((p) => text.includes(p)) || l.Pairs?.some((p) => aligned(text, p)));
}

const statusName = (s: string): string => DATA.status[s]?.trim() ?? "";

/** sisimai's Status.prefer: the Status field, unless it says less than the code in the text. */
export function preferStatus(field: string, inText: string, reply?: number): string {
  if (field.length < 5) return inText;
  if (inText.length < 5 || field === inText) return field;
  const [f, e, r] = [field[0], inText[0], String(reply ?? "0")[0]];
  if (r !== "0" && f !== e) return r === f ? field : r === e ? inText : field;
  if (field.includes(".0.0")) return inText.includes(".0.0") ? field : inText;
  if (field.indexOf(".0") > 0 && inText.indexOf(".0") < 0) return inText;
  if (inText.includes(".0.0")) return field;
  if (field === "4.4.7" || field.startsWith("5.3.")) return inText;
  if (field === "5.1.1") return inText.indexOf(".0") > 0 ? field : inText;
  if (field === "5.1.3" && inText.startsWith("5.7.")) return inText;
  return field;
}

const BEFORE_DATA = ["CONN", "EHLO", "HELO", "MAIL", "RCPT"];
type Facts = { status: string; name: string; text: string; command: string; reply: number };

const spamDetected = (f: Facts) =>
  f.status !== "" && (f.name === "spamdetected" || (!BEFORE_DATA.includes(f.command) && matches("spamdetected", f.text)));

/** Each reason module's `true`, for the reasons of ClassOrder[0] (lib/sisimai/reason.rb). */
const TRUE: [string, (f: Facts) => boolean][] = [
  ["mailboxfull", (f) => f.status !== "" && (f.name === "mailboxfull" || matches("mailboxfull", f.text))],
  ["mesgtoobig", (f) => f.name === "mesgtoobig" || (f.name !== "exceedlimit" && f.status !== "5.2.3" && matches("mesgtoobig", f.text))],
  ["exceedlimit", (f) => f.status !== "" && (f.name === "exceedlimit" || matches("exceedlimit", f.text))],
  ["suspend", (f) => f.status !== "" && (f.reply === 525 || matches("suspend", f.text))],
  ["hasmoved", (f) => matches("hasmoved", f.text)],
  ["norelaying", (f) => !["CONN", "EHLO", "HELO"].includes(f.command) && matches("norelaying", f.text)],
  ["authfailure", (f) => f.status !== "" && (f.name === "authfailure" || matches("authfailure", f.text))],
  ["userunknown", (f) => f.name !== "suspend" && (f.name === "userunknown"
    ? !["norelaying", "blocked", "mailboxfull", "hasmoved", "rejected", "notaccept"].some((r) => matches(r, f.text))
    : f.command === "RCPT" && matches("userunknown", f.text))],
  ["filtered", (f) => f.name !== "suspend" && (f.name === "filtered"
    ? matches("userunknown", f.text) || matches("filtered", f.text)
    : !BEFORE_DATA.includes(f.command) && (matches("filtered", f.text) || matches("userunknown", f.text)))],
  ["requireptr", (f) => f.name === "requireptr" || matches("requireptr", f.text)],
  ["notcompliantrfc", (f) => matches("notcompliantrfc", f.text)],
  ["badreputation", (f) => matches("badreputation", f.text)],
  ["contenterror", (f) => !spamDetected(f) && (f.name === "contenterror" || matches("contenterror", f.text))],
  ["rejected", (f) => {
    const name = f.name || "undefined";
    if (name === "rejected") return true;
    if (f.command === "MAIL") return matches("rejected", f.text);
    if (f.command === "DATA") return name !== "userunknown" && matches("rejected", f.text);
    return ["onhold", "undefined", "securityerror", "systemerror"].includes(name) && matches("rejected", f.text);
  }],
  ["hostunknown", (f) => (f.name === "hostunknown" ? !matches("networkerror", f.text) : matches("hostunknown", f.text))],
  ["spamdetected", spamDetected],
  ["speeding", (f) => f.status !== "" && matches("speeding", f.text)],
  ["toomanyconn", (f) => f.name === "toomanyconn" || matches("toomanyconn", f.text)],
  ["blocked", (f) => f.name === "blocked" || matches("blocked", f.text)],
];
/** ClassOrder[1]: the phrase lists tried when the status says nothing decisive (`anotherone`). */
const SECOND = ["mailboxfull", "authfailure", "badreputation", "speeding", "spamdetected", "virusdetected", "policyviolation",
  "norelaying", "systemerror", "networkerror", "suspend", "contenterror", "systemfull", "notaccept", "expired", "failedstarttls",
  "securityerror", "mailererror"];
/** Reasons a status may name that are worth a second look at the words (reason/lib.go Retry). */
const RETRY = new Set(["undefined", "onhold", "systemerror", "securityerror", "expired", "networkerror", "hostunknown", "userunknown"]);

/** The reason when no module's `true` holds (`anotherone`), or "", and whether only a code or the command named it. */
function anotherOne(f: Facts, type: string, delayed: boolean): [string, boolean] {
  if (f.name && !RETRY.has(f.name) && type !== "SMTP") return [f.name, false];
  const byWords = SECOND.find((r) => matches(r, f.text));
  if (byWords) return [byWords, false];
  if (f.name) return [f.name, true];
  if (/^[45]\.6/.test(f.status)) return ["contenterror", true];
  if (/^[45]\.7/.test(f.status)) return ["securityerror", true];
  if (type.startsWith("X-UNIX")) return ["mailererror", false];
  if ((f.reply > 400 && f.reply < 408) || (f.reply > 500 && f.reply < 508)) return ["syntaxerror", true];
  if (delayed) return ["expired", false];
  return [f.command === "HELO" || f.command === "EHLO" ? "blocked" : "", false];
}

/** sisimai's reason for a failure, "onhold" when its text says nothing it knows, "undefined" with no text;
 *  `byCodeAlone` when no words named it, only the status class or the reply code (sisimai's last resorts). */
export function sisimaiReasonOf(input: SisimaiInput): { reason: string; byCodeAlone: boolean } {
  const status = preferStatus(input.status ?? "", input.statusInText ?? "", input.reply);
  const f: Facts = { status, name: statusName(status), text: input.text.toLowerCase(), command: input.command.toUpperCase(), reply: input.reply ?? 0 };
  const type = (input.diagnosticType ?? "SMTP").toUpperCase();
  const first = type === "SMTP" ? TRUE.find(([, holds]) => holds(f))?.[0] : undefined;
  const [reason, byCodeAlone] = first !== undefined ? [first, false] : anotherOne(f, type, Boolean(input.delayed));
  if (reason && reason !== "undefined") return { reason, byCodeAlone };
  if (input.delayed) return { reason: "expired", byCodeAlone: false };
  if (matches("vacation", f.text)) return { reason: "vacation", byCodeAlone: false };
  return { reason: f.text ? "onhold" : "undefined", byCodeAlone: false };
}
