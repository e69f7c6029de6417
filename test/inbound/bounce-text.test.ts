import { describe, expect, test } from "bun:test";
import { parseBounceText, withTextEvidence } from "../../src/inbound/bounce-text.ts";
import type { BounceRecipient } from "../../src/inbound/dsn.ts";
import { classifyBounce } from "../../src/core/bounce/index.ts";

/** The first recipient of a notice the sending MTA's own mailer daemon wrote. */
const fromDaemon = (text: string, subject: string) =>
  parseBounceText({ text, excluded: [], fromAddress: "MAILER-DAEMON@mx.sender.example", subject })?.recipients[0];
const failed = (finalRecipient: string, extra: Partial<BounceRecipient> = {}): BounceRecipient => ({ finalRecipient, action: "failed", status: "5.0.0", ...extra });

describe("a DSN's text part fills in what its fields leave out", () => {
  const opensmtpd = "    An error has occurred while attempting to deliver a message for\n    the following list of recipients:\n\n" +
    "a@x.example: 550 5.7.26 This mail has been blocked because the sender is unauthenticated.\n\n    Below is a copy of the original message:\n";
  test("OpenSMTPD: no Diagnostic-Code, the reply only in the text", () => {
    const [r] = withTextEvidence([failed("a@x.example")], opensmtpd);
    expect(r?.diagnostic).toMatchObject({ code: 550, enhancedCode: "5.7.26" });
  });
  test("a Diagnostic-Code already given is kept", () => {
    const given = { type: "smtp", text: "550 5.1.1 no such user", code: 550, enhancedCode: "5.1.1" };
    expect(withTextEvidence([failed("a@x.example", { diagnostic: given })], opensmtpd)[0]?.diagnostic).toEqual(given);
  });
  test("only the first hundred recipients of a report are read against its text", () => {
    const many = Array.from({ length: 500 }, (_, i) => failed(`u${i}@x.example`));
    const out = withTextEvidence(many, opensmtpd.replace("a@x.example", "u0@x.example"));
    expect(out).toHaveLength(500);
    expect(out[0]?.diagnostic?.code).toBe(550);
    expect(out[1]?.diagnostic).toBeUndefined(); // not named in the text: borrows no one else's reply
    expect(out[499]?.diagnostic).toBeUndefined();
  });
});

describe("Yahoo's qmail-based notice", () => {
  test('"550: <x@y>: User unknown" is read as the reply, address and all (the receiver\'s table reads ">: user unknown")', async () => {
    const text = "Sorry, we were unable to deliver your message to the following address.\n\n<a@x.example>:\n550: <a@x.example>: User unknown\n";
    const r = parseBounceText({ text, excluded: [], fromAddress: "mailer-daemon@yahoo.com", subject: "Failure Notice" })?.recipients[0];
    expect(r?.diagnostic?.text).toBe("550: <a@x.example>: User unknown");
  });
});

describe("Postfix's text for an alias", () => {
  test('"<x> (expanded from <alias>): ..." names the expanded recipient and keeps the reason', async () => {
    const text = "This is the mail system at host mx.sender.example.\n\n                   The mail system\n\n" +
      "<a@gone.example> (expanded from <list@sender.example>): Host or domain\n    name not found. Name service error for name=gone.example type=A: Host not\n    found\n";
    const out = parseBounceText({ text, excluded: [], fromAddress: "MAILER-DAEMON@sender.example", subject: "Undelivered Mail Returned to Sender" });
    expect(out?.recipients.map((r) => r.finalRecipient)).toEqual(["a@gone.example"]);
    expect(out?.recipients[0]?.diagnostic?.text).toContain("Host or domain name not found");
  });
});

describe("a notice from a mailer with no daemon name (JetMail)", () => {
  test('"Your mail cannot be delivered" to a VERP path is a bounce, even with a plain "Mail Error" subject', async () => {
    const text = 'Your mail cannot be delivered to the following address(es):\n\n dylan "(0), ErrMsg=mail box space not enough, account=dylan "\n\nPlease check the above address(es) and then try again.\n';
    const out = parseBounceText({ text, excluded: [], fromName: "Jetmail System", subject: "Mail Error", trusted: true });
    expect(out?.recipients).toHaveLength(1);
    expect(out?.recipients[0]?.diagnostic?.text).toContain("mail box space not enough");
  });
});

describe("old mailers' notices (their own sentences, 2026-11-29)", () => {
  test("qmail-send gives up on a temporary reply: a failure, not a delay warning", async () => {
    const text = "Hi. This is the qmail-send program at mx.sender.example.\nI'm afraid I wasn't able to deliver your message to the following addresses.\n" +
      "This is a permanent error; I've given up. Sorry it didn't work out.\n\n<a@x.example>:\n" +
      "Connected to 192.0.2.1 but connection died. (#4.4.2)\nI'm not going to try again; this message has been in the queue too long.\n";
    const r = fromDaemon(text, "failure notice");
    expect(r).toMatchObject({ finalRecipient: "a@x.example", action: "failed" });
  });
  test("an Exim warning with the same 4xx reply stays a delay", async () => {
    const text = "This message was created automatically by mail delivery software.\nA message that you sent has not yet been delivered to one or more of its\n" +
      "recipients after more than 24 hours on the queue on mx.sender.example.\n\n  a@x.example\n    Delay reason: SMTP error from remote mail server after RCPT TO:<a@x.example>:\n" +
      "    451 4.4.2 Connection died\n\nNo action is required on your part. Delivery attempts will continue for\nsome time.\n";
    const r = fromDaemon(text, "Warning: message 1abc-000001-XY delayed 24 hours");
    expect(r).toMatchObject({ finalRecipient: "a@x.example", action: "delayed" });
  });
  test("Exchange 5.5's Internet Mail Connector quotes the address: \"'x' on <date>\" (Microsoft KB Q168557)", async () => {
    const text = "Your message did not reach some or all of the intended recipients.\n\n   Subject:hello\n      Sent: 3/27/97 11:18 AM\n\n" +
      "   The following recipient(s) could not be reached:\n\n      'a@x.example' on 3/27/97 11:18 AM\n            The recipient name is not recognized\n" +
      "            MSEXCH:IMC:LINKAGE:Toronto:WWW 3902 Host Unknown\n";
    const out = parseBounceText({ text, excluded: [], fromAddress: "postmaster@mx.x.example", fromName: "System Administrator", subject: "Undeliverable: hello" });
    expect(out?.recipients.map((r) => r.finalRecipient)).toEqual(["a@x.example"]);
    expect(out?.recipients[0]?.diagnostic?.text).toContain("recipient name is not recognized");
  });
});

describe("Sendmail's transcript", () => {
  test("the local mailer's complaint above the summary line is kept with it (\"mail.local: unknown user\")", () => {
    const text = "   ----- The following addresses had permanent fatal errors -----\n<a@x.example>\n\n   ----- Transcript of session follows -----\n" +
      "mail.local: unknown user: a\n554 <a@x.example>... Service unavailable\n";
    const [r] = withTextEvidence([failed("a@x.example", { status: "5.5.0" })], text);
    expect(r?.diagnostic).toMatchObject({ code: 554 });
    expect(r?.diagnostic?.text).toContain("mail.local: unknown user");
  });
});

describe("Sendmail 5's transcript (one line per recipient, \"NNN <x>... text\")", () => {
  test("a recipient's own line is its reply, not the next line's, which is another host's failure", () => {
    const text = "   ----- Transcript of session follows -----\nWhile talking to x.example:\n>>> DATA\n<<< 550 Refused by policy\n" +
      "554 <a@x.example>... Remote protocol error: Connection reset by peer during result wait with x.example\n" +
      "550 y.example (smtp)... 550 Host unknown\n554 <b@y.example>... 550 Host unknown (Authoritative answer from name server)\n";
    const r = parseBounceText({ text, excluded: [], fromAddress: "MAILER-DAEMON@mx.sender.example", subject: "Returned mail: User unknown" });
    expect(r?.recipients.map((x) => [x.finalRecipient, x.diagnostic?.text])).toEqual([
      ["a@x.example", "554 <a@x.example>... Remote protocol error: Connection reset by peer during result wait with x.example"],
      ["b@y.example", "554 <b@y.example>... 550 Host unknown (Authoritative answer from name server)"]]);
  });
});

describe("notices people published (GitHub issues, ISPs' pages), 2026-11-29", () => {
  test("Exim's \"The following address(es) deferred\" (a sending-rate limit, \"will be reattempted later\") is a delay", () => {
    const text = "A message that you sent could not be delivered to one or more of its\nrecipients. This is a temporary error. The following address(es) deferred:\n\n" +
      "  a@x.example\n    Domain sender.example has exceeded the max emails per hour (101/100 (101%)) allowed.  Message will be reattempted later\n";
    expect(fromDaemon(text, "Mail delivery deferred: returning message to sender")).toMatchObject({ finalRecipient: "a@x.example", action: "delayed" });
  });
  test("a reply code alone on its line is continued by the next line, indented or not (a page lost Postfix's indentation)", () => {
    const text = "The mail system\n<a@x.example>: host\nmx.x.example[] said: 550 5.7.1\n<a@x.example>: Recipient address rejected: Unknown user (in reply to RCPT TO command)\n";
    expect(fromDaemon(text, "Undelivered Mail Returned to Sender")?.diagnostic?.text).toBe("550 5.7.1 <a@x.example>: Recipient address rejected: Unknown user (in reply to RCPT TO command)");
  });
  test("Post.Office's \"Each of the following recipients was rejected\" gives each recipient's reason below it", () => {
    const text = "This Message was undeliverable due to the following reason:\n\nEach of the following recipients was rejected by a remote mail server.\n" +
      "The reasons given by the server are included to help you determine why\neach recipient was rejected.\n\n" +
      "Recipient: <a@x.example>\nReason: <a@x.example> ...User unknown\n\nPlease reply to Postmaster@mx.example\n";
    expect(fromDaemon(text, "Returned mail")?.diagnostic?.text).toStartWith("User unknown");
    const anonymous = parseBounceText({ text, excluded: ["a@x.example"], fromAddress: "Postmaster@mx.example", subject: "Returned mail", trusted: true });
    expect(anonymous?.recipients[0]?.diagnostic?.text).toContain("User unknown");
  });
});

describe("a second set of published notices, 2026-11-29", () => {
  test("Postfix's final notice (\"I'm sorry to have to inform you ...\") quoting a 421 gave up: a failure, not a delay", () => {
    const text = "This is the mail system at host mx.sender.example.\n\nI'm sorry to have to inform you that your message could not\nbe delivered to one or more recipients. It's attached below.\n\n" +
      "<a@x.example>: host mx.x.example[192.0.2.1] said: 421\n    4.7.0 [TSS04] Messages from 192.0.2.9 temporarily deferred due to\n    unexpected volume or user complaints (in reply to MAIL FROM command)\n";
    expect(fromDaemon(text, "Undelivered Mail Returned to Sender")).toMatchObject({ finalRecipient: "a@x.example", action: "failed", status: "4.7.0" });
  });
  test("Exchange 2003 puts \"If that fails, contact your administrator.\" between its reason and the #5.4.0 line", () => {
    const text = "Your message\n\ndid not reach the following recipient(s):\n\na@x.example on 1/1/2010 10:00 AM\n" +
      "The destination server for this recipient could not be found in Domain Name Service (DNS). Please verify the email address and retry.\n" +
      "If that fails, contact your administrator.\n<mx.sender.example #5.4.0>\n";
    expect(fromDaemon(text, "Undeliverable: hello")?.diagnostic?.text).toStartWith("The destination server for this recipient could not be found");
  });
});

describe("a third set of published notices, 2026-11-29", () => {
  test("Exchange Online's \"#550 5.7.1 <x>:\" is a reply code, continued by the receiver's words on the next line", () => {
    const text = "Delivery has failed to these recipients or distribution lists:\n\nYour message wasn't delivered because of security policies.\n\n" +
      "Diagnostic information for administrators:\n\nGenerating server: mx.sender.example\na@x.example\n" +
      "mx.x.example #550 5.7.1 <a@x.example>:\nRecipient address rejected: Invalid recipient ##\n";
    expect(fromDaemon(text, "Undeliverable: hello")?.diagnostic).toMatchObject({ code: 550, text: "550 5.7.1 <a@x.example>: Recipient address rejected: Invalid recipient ##" });
  });
});

describe("a fourth set of published notices, 2026-11-29", () => {
  test("Office 365's \"Remote server returned message detected as spam -> 550 ...\" keeps the words before the code", () => {
    const text = "Your message couldn't be delivered because the recipient's email server (outside Office 365) suspected that your message was spam.\n\n" +
      "a@x.example\nRemote server returned message detected as spam -> 550 permanent failure for one or more recipients\n";
    const r = fromDaemon(text, "Undeliverable: hello");
    expect(r?.diagnostic?.text).toBe("550 permanent failure for one or more recipients (message detected as spam)");
  });
});

describe("a version number is not a status code", () => {
  test("\"McAfee VirusScan for Win32 v4.32.0\" does not make a final notice a delay (4.32.0)", () => {
    const text = "Your message to a@x.example was infected with a virus.\n\nScanned by McAfee VirusScan for Win32 v4.32.0\n";
    const r = fromDaemon(text, "Message Bounced - Virus Infection");
    expect(r).toMatchObject({ finalRecipient: "a@x.example", action: "failed", status: "5.0.0" });
  });
});

describe("Post.Office / InterMail's notice", () => {
  test("the reason comes first and the recipients after it: the reason is the recipient's", async () => {
    const text = "This Message was undeliverable due to the following reason:\n\nYour message was not delivered because the destination computer\n" +
      "was not found.\n\n     Host x.example not found\n\nThe following recipients did not receive this message:\n\n     <a@x.example>\n\n" +
      "Please reply to Postmaster@mx.sender.example\nif you feel this message to be in error.\n";
    const r = parseBounceText({ text, excluded: [], fromAddress: "Postmaster@mx.sender.example", fromName: "Mail Administrator", subject: "Mail System Error - Returned Mail" })?.recipients[0];
    expect(r?.finalRecipient).toBe("a@x.example");
    expect(r?.diagnostic?.text).toContain("Host x.example not found");
  });
});

describe("delay warnings in words of their own", () => {
  test("a site's own Exim warning text, known by Exim's fixed subject", async () => {
    const text = "Your message to a@x.example could not be delivered yet. We will continue to try for a while.\n";
    const r = fromDaemon(text, "Warning: message 1Zb92h-0002aX-BS delayed 2 hours");
    expect(r).toMatchObject({ finalRecipient: "a@x.example", action: "delayed" });
  });
  test("\"Delivery will continue to be attempted\" (RFC 3464's example warning, Exchange) is a delay", async () => {
    const text = "Your message has not been delivered to a@x.example. Delivery will continue to be attempted.\n";
    const r = fromDaemon(text, "Returned mail");
    expect(r).toMatchObject({ finalRecipient: "a@x.example", action: "delayed" });
  });
  test("without such words or subject, a codeless notice is a failure", async () => {
    const text = "Your message to a@x.example could not be delivered.\n";
    const r = fromDaemon(text, "Undeliverable: hello");
    expect(r).toMatchObject({ finalRecipient: "a@x.example", action: "failed" });
  });
});

/** A notice that came to a VERP address (it names the recipient): read whatever it names. */
const throughVerp = (text: string, subject: string) =>
  parseBounceText({ text, excluded: [], fromAddress: "MAILER-DAEMON@mx.sender.example", subject, trusted: true })?.recipients[0];

describe("reply codes in a notice's text", () => {
  test("a URL's \"#550\" fragment is not a reply code (Mimecast's help links)", () => {
    const r = throughVerp("Envelope blocked - User Entry - https://community.mimecast.com/docs/DOC-1369#550\n", "Returned mail");
    expect(r?.diagnostic?.code).toBeUndefined();
    expect(r?.diagnostic?.text).toContain("Envelope blocked");
  });
  test("a multi-line reply whose lines lost their indentation is read whole (GMX's \"554-\" lines)", () => {
    const reply = "554-gmx.net (mxgmx104) Nemesis ESMTP Service not available\n554-No SMTP service\n554-IP address is block listed.\n" +
      "554 For explanation visit https://postmaster.gmx.net/en/case?c=r0201\n";
    const r = throughVerp(reply, "Returned mail");
    expect(r?.diagnostic?.code).toBe(554);
    expect(r?.diagnostic?.text).toContain("IP address is block listed");
  });
  test("the returned message's own fields under the recipient are not its reason (the opening sentence is)", () => {
    const notice = "You have received this notification, as the recipient e-mail Address has been deactivated.\n\n" +
      "Original Envelope Sender: a@sender.example\nEnvelope Recipient: b@x.example\nDate: 12/25/15\nTime: 20:47:07\nSubject: Hello\n\nMessage Administrator\n";
    const r = fromDaemon(notice, "Delivery Notification");
    expect(r?.finalRecipient).toBe("b@x.example");
    expect(r?.diagnostic?.text).toContain("has been deactivated");
  });
});

describe("1&1's notice (kundenserver.de)", () => {
  test("the returned message starts at \"--- The header of the original message is following. ---\": not part of the reason", () => {
    const notice = "This message was created automatically by mail delivery software.\nA message that you sent could not be delivered to one or more of\n" +
      "its recipients. This is a permanent error. The following address(es)\nfailed:\n<a@x.example>\nReason:\nmultiple delivery attempts failed\n" +
      "--- The header of the original message is following. ---\nReceived: from [192.168.0.243] by mrelayeu.kundenserver.de\nSubject: test\n";
    expect(fromDaemon(notice, "Mail delivery failed: returning message to sender")?.diagnostic?.text).toBe("Reason: multiple delivery attempts failed");
  });
});

describe("Sendmail's subject", () => {
  test("names the failure when the body gives no reply code (AOL's notice with its transcript left out)", () => {
    const notice = "The original message was received at Thu, 9 Oct 2003 09:42:29 -0400 (EDT)\n\n*** ATTENTION ***\n\n" +
      "Your e-mail is being returned to you because there was a problem with its\ndelivery.  The address which was undeliverable is listed in the section\n" +
      "labeled: \"----- The following addresses had permanent fatal errors -----\".\n\n----- The following addresses had permanent fatal errors -----\n<a@x.example>\n";
    expect(fromDaemon(notice, "Returned mail: User unknown")?.diagnostic?.text).toStartWith("User unknown.");
    expect(fromDaemon(notice, "Returned mail: see transcript for details")?.diagnostic?.text).not.toContain("see transcript");
  });

  test("the returned message's own subject after the prefix does not outrank the notice's words (Prodigy, 2002)", () => {
    const notice = "Unable to find user: <a@x.example>\nPlease make sure the address is correct and resend your mail.\n";
    const text = throughVerp(notice, "Returned mail: Your mailbox is full? Upgrade your plan today")?.diagnostic?.text ?? "";
    expect(text).toStartWith("Unable to find user");
    expect(classifyBounce({ text, command: "unknown" }).bounceClass).toBe(10);
  });
});

describe("a reply that names another address in its words (an alias's forwarded address)", () => {
  test("the reply stays the notice's recipient's, not cut at the other address", () => {
    const notice = "Sorry, we were unable to deliver your message to the following address.\n\n<alias@x.example>:\n" +
      "554 delivery error: dd Sorry your message to forwarded@y.example cannot be delivered. This account has been disabled or discontinued [#102]. - mta1.y.example\n";
    const r = parseBounceText({ text: notice, excluded: [], fromAddress: "MAILER-DAEMON@x.example", subject: "Failure Notice" })?.recipients.find((x) => x.finalRecipient === "alias@x.example");
    expect(r?.diagnostic?.text).toContain("has been disabled or discontinued");
  });
});

describe("bounces passed on by people and relays (an eleventh published set, pastebin, 2026-11-29)", () => {
  const exim = "This message was created automatically by mail delivery software.\nA message that you sent could not be delivered to one or more of its\n" +
    "recipients. This is a permanent error. The following address(es) failed:\nrstewart@x.example\nSMTP error from remote mail server after RCPT TO:<rstewart@x.example>:\n" +
    "host mail.x.example [192.0.2.7]: 550 Blocked\n------ This is a copy of the message, including all the headers. ------\nReturn-path: <a@sender.example>\n";
  test("a bounce forwarded from Outlook (\"-----Original Message-----\" and its fields on top) is read from the notice below them", () => {
    const forwarded = "-----Original Message-----\nFrom: Mail Delivery System [mailto:Mailer-Daemon@relay.example]\nSent: Tuesday, September 09, 2008 11:23 AM\n" +
      "To: Eric\nSubject: Mail delivery failed: returning message to sender\n\n" + exim;
    expect(fromDaemon(forwarded, "Mail delivery failed: returning message to sender")?.diagnostic).toMatchObject({ code: 550 });
  });
  test("a bounce forwarded from a Spanish Outlook (\"-----Mensaje original-----\", De:/Enviado el:/Para:/Asunto:) likewise", () => {
    const forwarded = "-----Mensaje original-----\nDe: Mail Delivery System [mailto:mailer-daemon@relay.example]\nEnviado el: miércoles, 13 de diciembre de 2017 14:52\n" +
      "Para: a@sender.example\nAsunto: Mail delivery failed: returning message to sender\nThis message was created automatically by mail delivery software.\n" +
      "A message that you sent could not be delivered to one or more of its recipients. This is a permanent error. The following address(es)\nfailed:\n" +
      "j@x.example:\nno valid MX hosts found\n";
    expect(throughVerp(forwarded, "Mail delivery failed: returning message to sender")?.diagnostic?.text).toContain("no valid MX hosts found");
  });
  test("a DSN flattened into text: a bare \"Status: 5.0.0\" field gives way to the words under the address", () => {
    const flat = "The following address(es) failed:\n\n  me@x.example\n    Unrouteable address\n\nReporting-MTA: dns; relay.example\nAction: failed\n" +
      "Final-Recipient: rfc822;me@x.example\nStatus: 5.0.0\n";
    const d = fromDaemon(flat, "Mail delivery failed: returning message to sender")?.diagnostic;
    expect(d?.text).toStartWith("Unrouteable address");
    expect(d?.enhancedCode).toBe("5.0.0");
  });
});

describe("Google Groups' refusal of a post", () => {
  test("known by its fixed opening when the help-centre link is not there, and read as the group's refusal", () => {
    const notice = "We're writing to let you know that the group you tried to contact\n(pks-feedback) may not exist, or you may not have permission to post\n" +
      "messages to the group. A few more details on why you weren't able to post:\n\n* You might have spelled or formatted the group name incorrectly.\n";
    const r = parseBounceText({ text: notice, excluded: [], fromAddress: "mailer-daemon@googlemail.com", subject: "Delivery Status Notification (Failure)", trusted: true })?.recipients[0];
    expect(r?.diagnostic?.text).toStartWith("Google Groups: the group refused the post.");
  });
});

describe("Exim's give-up", () => {
  test("\"retry timeout exceeded\" under a quoted 4xx is a final failure, not a delay", () => {
    const notice = "This message was created automatically by mail delivery software.\n\nA message that you sent could not be delivered to one or more of\n" +
      "its recipients. This is a permanent error. The following address(es) failed:\n\n  a@x.example\n    retry timeout exceeded\n" +
      "    SMTP error from remote mail server after MAIL FROM:<s@sender.example>:\n    host mx.x.example [192.0.2.1]: 421 4.7.0 [TS01] Messages from 192.0.2.9 temporarily deferred\n";
    expect(fromDaemon(notice, "Mail delivery failed: returning message to sender")?.action).toBe("failed");
  });
});
