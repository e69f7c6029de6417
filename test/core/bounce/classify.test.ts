// The classifier against published reply texts (test/fixtures/bounces/replies.tsv), plus the code
// repairs and the rules that keep temporary refusals from ever making a hard bounce.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BOUNCE_CLASSES, bounceCategory, classifyBounce, readCodes } from "../../../src/core/bounce/index.ts";

const rows = readFileSync(join(import.meta.dir, "../../fixtures/bounces/replies.tsv"), "utf8").split("\n")
  .filter((l) => l.trim() && !l.startsWith("#")).map((l) => {
    const [cls, ...text] = l.split("\t");
    return { cls: Number(cls), text: text.join("\t") };
  });

describe("bounce classes", () => {
  test("SparkPost's published table, categories included", () => {
    expect(Object.keys(BOUNCE_CLASSES).map(Number)).toEqual([1, 10, 20, 21, 22, 23, 24, 25, 30, 40, 50, 51, 52, 53, 54, 60, 70, 80, 90, 100]);
    expect([10, 30, 90].map((c) => bounceCategory(c as 10))).toEqual(["hard", "hard", "hard"]);
    expect([50, 51, 52, 53, 54].every((c) => bounceCategory(c as 50) === "block")).toBe(true);
    expect([20, 21, 22, 23, 24, 40, 60, 70, 100].every((c) => bounceCategory(c as 20) === "soft")).toBe(true);
    expect([bounceCategory(25), bounceCategory(80), bounceCategory(1)]).toEqual(["admin", "admin", "undetermined"]);
  });
});

describe("codes as written in the wild", () => {
  test.each([
    ["550 550 5.1.1 no such user", 550, "5.1.1"],
    ["550-5.1.01 bad mailbox", 550, "5.1.1"],
    ["smtp; 554 5.7.1 blocked", 554, "5.7.1"],
    ["Sorry, no mailbox here by that name. (#5.1.1)", undefined, "5.1.1"],
    ["550 4.2.2 mailbox full", 550, "5.2.2"],
    ["host said: 450 4.7.1 try later", 450, "4.7.1"],
    ["550 5.0.0 <x>: 5.1.1 unknown", 550, "5.1.1"],
    ["delivered to 10.1.2.3 version 5.1.2.3", undefined, undefined],
  ])("%s", (text, code, enhanced) => {
    const got = readCodes({ text });
    expect([got.code, got.enhancedCode]).toEqual([code, enhanced]);
  });

  test("a generic given code yields to a specific one in the text; a malformed one is ignored", () => {
    expect(readCodes({ enhancedCode: "5.0.0", text: "550 5.1.1 unknown" }).enhancedCode).toBe("5.1.1");
    expect(readCodes({ enhancedCode: "5.2.2", text: "550 5.1.1 unknown" }).enhancedCode).toBe("5.2.2");
    expect(readCodes({ enhancedCode: "5.x.1", code: 550 }).enhancedCode).toBeUndefined();
  });
});

describe("classification of published texts", () => {
  for (const row of rows) {
    test(`${row.cls} ← ${row.text.slice(0, 90)}`, () => expect(classifyBounce({ text: row.text }).bounceClass).toBe(row.cls as 10));
  }
});

describe("the refused command", () => {
  test("a refusal of MAIL FROM or HELO is about our sender or host, never a hard bounce, unless it names a missing mailbox", () => {
    // Haraka's access plugin on a listed sender domain: words that name nothing, so the command decides.
    expect(classifyBounce({ text: "550 You are not welcome here.", command: "MAIL" }).bounceClass).toBe(50);
    expect(classifyBounce({ text: "550 You are not welcome here.", command: "HELO" }).bounceClass).toBe(50);
    expect(classifyBounce({ text: "550 You are not welcome here.", command: "RCPT" }).category).toBe("hard");
    expect(classifyBounce({ text: "550 <a@b.example>... User unknown", command: "MAIL" }).bounceClass).toBe(10);
  });
  test("X.7.27 is our sender's null MX only with words about our sender (Postfix and Sendmail send it for a recipient's too)", () => {
    expect(classifyBounce({ text: "550 5.7.27 Domain in MAIL FROM has null MX record", command: "RCPT" }).bounceClass).toBe(50);
    expect(classifyBounce({ text: "550 Host does not accept mail", status: "5.7.27", enhancedCode: "5.7.27", command: "RCPT" }).category).toBe("hard");
  });
});

describe("temporary refusals and expiry", () => {
  test("a 4xx about the address is soft, never hard", () => {
    expect(classifyBounce({ text: "450 4.1.1 <a@b.example>: Recipient address rejected: User unknown" })).toMatchObject({ bounceClass: 20, category: "soft" });
  });
  test("a queue lifetime ending on a 4xx is a timeout unless the last reply says block or full", () => {
    expect(classifyBounce({ text: "451 4.3.0 try later", expired: true }).bounceClass).toBe(24);
    expect(classifyBounce({ text: "450 4.1.1 user unknown", expired: true }).bounceClass).toBe(24);
    expect(classifyBounce({ text: "452 4.2.2 over quota", expired: true }).bounceClass).toBe(22);
    expect(classifyBounce({ text: "421 4.7.0 [TSS04] Messages from 1.2.3.4 temporarily deferred due to user complaints", expired: true }).bounceClass).toBe(51);
    expect(classifyBounce({ text: "ECONNECTION: connect ECONNREFUSED", enhancedCode: "4.4.2", expired: true }).bounceClass).toBe(24);
  });
  test("nothing at all is undetermined", () => {
    expect(classifyBounce({}).bounceClass).toBe(1);
  });
});

describe("a lost SMTP conversation is a network failure", () => {
  test("Gmail's TEMP_FAILURE and 'connection dropped' are soft, not a block", () => {
    for (const text of ["Technical details of permanent failure: TEMP_FAILURE: Could not initiate SMTP conversation with any hosts: [x.example (1): Connection dropped]",
      "Technical details of permanent failure: Connection was dropped by remote host (SENT_HELO)"]) {
      expect(classifyBounce({ text, enhancedCode: "5.0.0", command: "unknown" }).category).toBe("soft");
    }
  });
});

describe("mailbox full in other words", () => {
  test("JetMail's 'mail box space not enough' is a full mailbox, soft", () => {
    expect(classifyBounce({ text: 'Your mail cannot be delivered: dylan "(0), ErrMsg=mail box space not enough, account=dylan"', command: "unknown" }).bounceClass).toBe(22);
    expect(classifyBounce({ text: "552 not enough disk space for this mailbox" }).bounceClass).toBe(22);
  });
});

describe("a refusal for policy reasons", () => {
  test("GMX's 'Transaction failed Reject due to policy restrictions' in a report is a block, not the receiver's system error", () => {
    const text = "554 Transaction failed Reject due to policy restrictions.";
    expect(classifyBounce({ text, code: 554, enhancedCode: "5.0.0", command: "RCPT" }).bounceClass).toBe(50);
    expect(classifyBounce({ text: "554 Transaction failed: temporary local problem", code: 554, command: "RCPT" }).category).toBe("soft");
  });
});

describe("our sender refused", () => {
  test("Exchange Online's '550 5.1.0 Sender denied' and qmail's 'sender was rejected' are blocks, not an unknown user", () => {
    expect(classifyBounce({ text: "550 5.1.0 Sender denied", code: 550, enhancedCode: "5.0.0", command: "RCPT" }).category).toBe("block");
    expect(classifyBounce({ text: "550 5.1.0 Sender denied" }).category).toBe("block");
    const qmail = "Connected to 192.0.2.1 but sender was rejected. Remote host said: 550 5.1.0 <s@example.com> rejected";
    expect(classifyBounce({ text: qmail, enhancedCode: "5.0.0", command: "MAIL" }).category).toBe("block");
  });
});

describe("the MTAs' own texts in their bounces (sisimai lhost tables)", () => {
  test("qmail's unknown host is hard when stated permanent, soft with qmail-remote's temporary #4.1.2 or after expiry", () => {
    const report = { enhancedCode: "5.0.0", status: "5.0.0", command: "unknown" };
    expect(classifyBounce({ ...report, text: "Sorry, I couldn't find any host by that name." }).category).toBe("hard");
    expect(classifyBounce({ ...report, text: "Sorry, I couldn't find any host by that name. (#4.1.2)" }).category).toBe("soft");
    expect(classifyBounce({ ...report, text: "Sorry, I couldn't find any host by that name.", expired: true }).bounceClass).toBe(24);
  });
  test("a full system is soft even in the words of a missing mailbox", () => {
    const text = "Requested action not taken: mailbox unavailable (not enough free space)";
    expect(classifyBounce({ text, code: 550, enhancedCode: "5.0.0", status: "5.0.0", command: "RCPT" }).category).toBe("soft");
  });
});

/** A receiver's reply as a DSN reports it: refused at RCPT, with the report's bare 5.0.0 status. */
const atRcpt = (text: string) => classifyBounce({ text, code: Number(text.slice(0, 3)), enhancedCode: "5.0.0", status: "5.0.0", command: "RCPT" });

describe("receivers' replies in a report refused at RCPT (KumoMTA's community rules)", () => {
  test("our sender's domain said not to exist is a block, not the recipient's domain", () => {
    expect(atRcpt("553 sorry, your envelope sender domain must exist (#5.7.1)").category).toBe("block");
    expect(atRcpt("553 Domain of sender address someone@example.com does not exist").category).toBe("block");
    expect(atRcpt("550 Sender someone@example.com has no A, AAAA, or MX DNS records").category).toBe("block");
    expect(atRcpt("550 Domain example.net does not exist").category).toBe("hard");
  });
  test("a reply code that sisimai can only read as a syntax error yields to words that say more", () => {
    expect(atRcpt("501 5.0.2 Mail rejected. DMARC check failed.").category).toBe("block");
    expect(atRcpt("501 5.1.3 Bad recipient address syntax").category).toBe("hard");
  });
  test("the recipient named as refused at RCPT is an invalid recipient", () => {
    expect(atRcpt("550 That recipient is not allowed").category).toBe("hard");
    expect(atRcpt("550 5.7.1 recipient <someone@example.net> denied").category).toBe("hard");
    expect(atRcpt("550 5.7.1 Relaying denied").category).toBe("block");
  });
});

describe("a blocklist named beside other words (ZoneMTA's examples)", () => {
  test("our IP listed is a spam block even after 'Mailbox unavailable', and a status class alone does not outrank the words", () => {
    expect(atRcpt("550 5.2.1 Mailbox unavailable. Your IP address 203.0.113.5 is blacklisted using SPAMHAUS-XBL.").bounceClass).toBe(51);
    expect(atRcpt("553 5.3.0 203.0.113.5 Rejected - see http://www.spamhaus.org").bounceClass).toBe(51);
    expect(atRcpt("554 5.5.4 Your IP 203.0.113.5 address has a bad reputation.").bounceClass).toBe(51);
    expect(atRcpt("550 5.2.1 Mailbox unavailable").bounceClass).not.toBe(51);
    expect(atRcpt("550 5.7.1 Message blocked: URL in message is listed on dbl.spamhaus.org").bounceClass).toBe(52);
  });
  test("a reply that is a blocklist's lookup page for our IP is a spam block, whatever address status Sendmail gave its 553", () => {
    const godaddy = "553 http://www.spamhaus.org/query/bl?ip=192.0.2.222"; // sisimai's GoDaddy table: blocked
    expect(classifyBounce({ text: godaddy, code: 553, enhancedCode: "5.1.3", status: "5.1.3", command: "unknown" }).bounceClass).toBe(51);
    expect(atRcpt("550 5.7.1 Rejected, see https://www.spamcop.net/bl.shtml?192.0.2.1").bounceClass).toBe(51);
    expect(atRcpt("550 5.1.1 <a@x.example>: Recipient address rejected: User unknown").bounceClass).toBe(10);
  });
  test("refused for too many invalid recipients is a block on our traffic, not an unknown user, even under 5.1.1", () => {
    expect(atRcpt("550 Too many invalid recipients").bounceClass).toBe(50);
    expect(classifyBounce({ text: "550 5.1.1 Too many invalid recipients", code: 550, enhancedCode: "5.1.1", status: "5.1.1", command: "RCPT" }).bounceClass).toBe(50);
  });
});

describe("Exchange Online's own sentences and its front end's quoted reply", () => {
  test("the reply a front end quotes is the failure: a domain that does not exist is hard, whatever the outer 5.7.0", () => {
    const text = "550 5.7.0 Proxy session setup failed on Frontend with '554 5.4.4 SMTPSEND.DNS.NonExistentDomain; nonexistent domain";
    expect(classifyBounce({ text, code: 550, enhancedCode: "5.7.0" })).toMatchObject({ bounceClass: 10, enhancedCode: "5.4.4" });
  });
  test("a recipient or a group that takes mail only from senders it allows refuses our sender: a block", () => {
    for (const text of ["Your message can't be delivered because delivery to this address is restricted.",
      "The group omexconeint only accepts messages from people in its organization or on its allowed senders list, and your email address isn't on the list."]) {
      expect(classifyBounce({ text, enhancedCode: "5.0.0" }).category).toBe("block");
    }
  });
});

describe("national receivers' replies (an eighth published set, 2026-11-29)", () => {
  test("a refusal that names policy is a block under a 4xx too (deferred, never hard)", () => {
    for (const text of ["421 Reject due to policy violations", "450 Reject due to policy violations."]) {
      expect(classifyBounce({ text, enhancedCode: "4.0.0" })).toMatchObject({ bounceClass: 50, category: "block" });
    }
  });
  test("a refusal for policy outranks RFC 5321's generic \"mailbox unavailable\" beside it (GMX), and receivers' spam codes stay spam (52)", () => {
    expect(classifyBounce({ text: "550 Requested action not taken: mailbox unavailable Reject due to policy restrictions. For explanation visit x" }).category).toBe("block");
    expect(classifyBounce({ text: "554 5.7.1 [HM08] Message rejected due to local policy. Please visit https://support.apple.com/en-us/HT204137" }).bounceClass).toBe(52);
  });
  test("Forpsi's Polish \"Naruszenie zasad\" (policy violation) is a block, not the bad address its 5.1.0 would say", () => {
    expect(classifyBounce({ text: "550 5.1.0 Naruszenie zasad cNkj1y0022zrrQM01NkjaD, zobacz https://support.forpsi.com/kb/a4071", command: "RCPT" }).category).toBe("block");
  });
  test("Sendmail's \"Can't create output\" is the receiver's own failure, soft, not the hard bounce its 550 would say", () => {
    expect(classifyBounce({ text: "550 5.0.0 <x@alpha.example>... Can't create output", command: "RCPT" }).category).toBe("soft");
    expect(classifyBounce({ text: "mail.x.example [192.0.2.1] can't create user output file", enhancedCode: "5.0.0" }).category).toBe("soft");
  });
  test("a receiver's filter refusing the mail (Winmail's filter rule, 163.net's \"not welcome\") is a block", () => {
    expect(classifyBounce({ text: "delivery failure: the message matches up to the filter rule(level: system, name:xxx)", enhancedCode: "5.0.0" }).category).toBe("block");
    expect(classifyBounce({ text: "<x@163.net>: This Message is not welcome", enhancedCode: "5.0.0" }).category).toBe("block");
  });
});

describe("whole bounces pasted on pastebin (a seventh published set, 2026-11-29)", () => {
  test("Exim's \"Sender verify failed\" is our sender refused, whatever \"No Such User Here\" its callout quotes", () => {
    const text = "550-Verification failed for <a@sender.example>\n550-No Such User Here\n550 Sender verify failed";
    expect(classifyBounce({ text, command: "RCPT" }).category).toBe("block");
    expect(classifyBounce({ text }).category).toBe("block");
  });
  test("Barracuda's per-recipient \"(x:quarantined)\" is a spam block, not the hard bounce its 550 would say", () => {
    expect(classifyBounce({ text: "550 permanent failure for one or more recipients (support@x.example:quarantined)" }).category).toBe("block");
  });
  test("a SpamAssassin rule name (DKIM_ADSP_NXDOMAIN) is not a domain that does not exist", () => {
    const text = "554 5.7.1 Content filter rejection: SpamAssassin score 21.673 (DEAR_SOMETHING,DKIM_ADSP_NXDOMAIN,DNSBL_AND_URIBL,HTML_MESSAGE)";
    expect(classifyBounce({ text, command: "DATA" }).category).toBe("block");
    expect(classifyBounce({ text: "550 5.1.2 NXDOMAIN for x.example" }).category).toBe("hard");
  });
  test("1&1's \"multiple delivery attempts failed\" is retries that ran out, soft", () => {
    expect(classifyBounce({ text: "Reason: multiple delivery attempts failed", code: 550, enhancedCode: "5.0.0", command: "unknown" }).category).toBe("soft");
  });
  test("AOL's CON:B1 (a spike in complaints) refuses our IP, whatever its 5.2.1", () => {
    expect(classifyBounce({ text: "521 5.2.1 : (CON:B1) http://postmaster.info.aol.com/errors/554conb1.html" })).toMatchObject({ bounceClass: 51 });
  });
});

describe("mailing-list archives and Q&A pages (a ninth published set, 2026-11-29)", () => {
  test("ezmlm's refusal of a content type is about the message, whatever size its #5.2.3 names", () => {
    const text = "ezmlm-reject: fatal: Sorry, I don't accept messages of MIME Content-Type 'text/html' (#5.2.3)";
    expect(classifyBounce({ text, code: 550, enhancedCode: "5.2.3", command: "unknown", status: "5.2.3" }).category).toBe("block");
  });
  test("\"is listed in the section labeled\" (Sendmail and AOL's own explanation) is not a blocklist listing", () => {
    const text = "The address which was undeliverable is listed in the section labeled: \"----- The following addresses had permanent fatal errors -----\".";
    expect(classifyBounce({ text, enhancedCode: "5.0.0" }).category).not.toBe("block");
  });
});

describe("replies pasted in GitHub threads (a thirteenth published set, 2026-11-29)", () => {
  test("\"Folder full\" is a full mailbox (22), not the hard bounce its 550 would say", () => {
    expect(classifyBounce({ text: "550 5.2.5 Folder full", command: "RCPT" })).toMatchObject({ bounceClass: 22 });
  });
  test("Exchange Online's daily recipient limit is our sending account's limit, never a hard bounce, whatever its 5.1.90", () => {
    const text = "550 5.1.90 Your message can't be sent because you've reached your daily limit for message recipients";
    expect(classifyBounce({ text, command: "RCPT" }).category).not.toBe("hard");
    expect(classifyBounce({ text }).category).not.toBe("hard");
  });
  test("\"550 ip in prison\" refuses our IP", () => {
    expect(classifyBounce({ text: "550 ip in prison", command: "RCPT" }).category).toBe("block");
  });
});

describe("a stranger's long text", () => {
  test("is read up to the longest a report gives, so phrase rules that scan on from each word stay cheap", () => {
    expect(classifyBounce({ code: 550, text: `550 5.7.1 ${"client host ".repeat(30_000)}` }).bounceClass).toBe(50);
    expect(classifyBounce({ code: 550, text: `550 5.7.1 client host [192.0.2.1] blocked ${"ip ".repeat(40_000)}` }).bounceClass).toBe(51);
  });
});
