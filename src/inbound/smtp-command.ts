// The SMTP command a receiver's refusal answered, as each MTA writes it in its bounce. It matters
// because recipients are checked at RCPT (RFC 5321 §3.3): "user unknown" in answer to RCPT is a
// verdict on the address, anywhere else it is a filter refusing the message (sisimai
// lib/sisimai/reason/filtered.rb, userunknown.rb). The phrasings come from the MTAs' own texts as
// sisimai's MTA modules read them (rb-sisimai 5.1.0, lib/sisimai/lhost/*.rb, BSD-2):
// Postfix, Exim, Sendmail, qmail, DragonFly/OpenSMTPD, Yahoo, X3.

type Command = "CONN" | "HELO" | "MAIL" | "RCPT" | "DATA";

/** Each phrasing with the command it names ($1 a command word, or a fixed command). */
const PHRASES: readonly (readonly [RegExp, Command?])[] = [
  // Postfix: "(in reply to RCPT TO command)", "(in reply to end of DATA command)".
  [/in reply to\s+(?:end\s+of\s+)?(DATA|RCPT\s+TO|MAIL\s+FROM|HELO|EHLO)\b/i],
  // Exim: "SMTP error from remote mail server after RCPT TO:<x>", "after end of data", "after pipelined".
  // GMX: "SMTP error from remote server after RCPT command".
  [/\bafter\s+(?:pipelined\s+)?(?:end\s+of\s+)?(data|RCPT(?:\s+TO)?|MAIL(?:\s+FROM)?|HELO|EHLO)\b/i],
  [/\bafter\s+initial\s+connection\b/i, "CONN"],
  // Sendmail, Courier, ezweb transcripts: ">>> RCPT To:<x>" then "<<< 550 ...".
  [/^[ \t]*>>>\s*(DATA|RCPT\s+TO|MAIL\s+FROM|HELO|EHLO)\b/im],
  // DragonFly / OpenSMTPD: "mx.example [192.0.2.1] did not like our RCPT TO:".
  [/did not like our\s+(DATA|RCPT\s+TO|MAIL\s+FROM|HELO|EHLO)\b/i],
  // qmail-remote: "most progress was RCPT TO response", "does not like recipient", "failed on DATA command",
  // "Connected to 192.0.2.1 but my name was rejected" (its HELO).
  [/\b(RCPT\s+TO|DATA|MAIL\s+FROM)\s+response\b/i],
  [/does not like recipient\./i, "RCPT"],
  [/failed on DATA command/i, "DATA"],
  [/but my name was rejected/i, "HELO"],
  // Yahoo: "[RCPT_TO]"; X3: "SMTP:RCPT host 192.0.2.8: 553 ...".
  [/\[(RCPT_TO|MAIL_FROM|DATA)\]/i],
  // GMX: "SMTP error from remote server for RCPT TO command".
  [/\bfor\s+(RCPT\s+TO|MAIL\s+FROM|DATA)\s+command\b/i],
  [/\bSMTP:(RCPT|DATA|MAIL)\s+host\b/i],
];

function commandOf(word: string): Command {
  const w = word.toUpperCase().replace(/[\s_].*$/, "");
  return w === "EHLO" ? "HELO" : (w as Command);
}

/** The first command a phrasing names in `text`, or undefined. */
function findIn(text: string): Command | undefined {
  let best: { at: number; cmd: Command } | undefined;
  for (const [re, fixed] of PHRASES) {
    const m = re.exec(text);
    if (m && (!best || m.index < best.at)) best = { at: m.index, cmd: fixed ?? commandOf(m[1]!) };
  }
  return best?.cmd;
}

/** OpenSMTPD's notice ("This is the MAILER-DAEMON, please DO NOT REPLY to this email.", smtpd/bounce.c)
 *  never names the refused command, whatever it was: its silence is no evidence either way. */
const UNREPORTING_MTA_RE = /This is the MAILER-DAEMON, please DO NOT REPLY to this e-?mail/i;

/** The command refused for `address`: read from its mention on, else anywhere in the notice;
 *  "UNREPORTED" when the notice comes from an MTA that never says. */
export function smtpCommandOf(text: string, address: string): string | undefined {
  return smtpCommandsOf(text, [address])[0];
}

/** smtpCommandOf for each address, the notice read once for all: the mentions are taken in text order, and each
 *  phrasing's search goes on from where it last stopped (a hundred addresses each searching a notice of MBs to its end
 *  cost a hundred times its length). */
export function smtpCommandsOf(text: string, addresses: readonly string[]): (string | undefined)[] {
  const lower = text.toLowerCase();
  const ats = addresses.map((address) => (address ? lower.indexOf(address.toLowerCase()) : -1));
  const whole = findIn(text);
  const searches = PHRASES.map(([re]) => searchFrom(text, re));
  const fromMention = new Map<number, Command | undefined>();
  for (const at of [...new Set(ats)].filter((at) => at > 0).sort((a, b) => a - b)) fromMention.set(at, findFrom(text, at, searches));
  const unreported = UNREPORTING_MTA_RE.test(text) ? "UNREPORTED" : undefined;
  return ats.map((at) => (at > 0 ? fromMention.get(at) ?? whole : whole) ?? unreported);
}

/** Each phrasing tried at one position only, for the mention itself. */
const AT_MENTION = PHRASES.map(([re]) => new RegExp(re.source, `${re.flags}y`));

/** findIn(text.slice(at)) for `at` > 0. A phrasing that starts after `at` is found in the whole text alike (only the
 *  character before a match is looked at, by \b and ^); one at `at` itself is read as in the slice, text starting there. */
function findFrom(text: string, at: number, searches: ((from: number) => RegExpExecArray | null)[]): Command | undefined {
  const rest = text.slice(at);
  let best: { at: number; cmd: Command } | undefined;
  for (const [i, [, fixed]] of PHRASES.entries()) {
    const sticky = AT_MENTION[i]!;
    sticky.lastIndex = 0;
    const here = sticky.exec(rest);
    const m = here ?? searches[i]!(at + 1);
    if (!m) continue;
    const index = here ? at : m.index;
    if (!best || index < best.at) best = { at: index, cmd: fixed ?? commandOf(m[1]!) };
  }
  return best?.cmd;
}

/** The first match of `re` from a position on, asked in rising order: a search that found one after the position
 *  asked (or none at all) answers again without reading the text. */
function searchFrom(text: string, re: RegExp): (from: number) => RegExpExecArray | null {
  const global = new RegExp(re.source, `${re.flags}g`);
  let last: { from: number; found: RegExpExecArray | null } | undefined;
  return (from) => {
    if (last && last.from <= from && (last.found === null || last.found.index >= from)) return last.found;
    global.lastIndex = from;
    last = { from, found: global.exec(text) };
    return last.found;
  };
}
