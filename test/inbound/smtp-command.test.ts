import { describe, expect, test } from "bun:test";
import { smtpCommandOf } from "../../src/inbound/smtp-command.ts";

describe("the SMTP command a refusal answered", () => {
  test("Postfix, Exim and Sendmail transcripts", () => {
    expect(smtpCommandOf("<a@x.example>: host mx said: 550 User unknown (in reply to end of DATA\n    command)", "a@x.example")).toBe("DATA");
    expect(smtpCommandOf("<a@x.example>: host mx said: 550 5.1.1 no such user (in reply to RCPT TO command)", "a@x.example")).toBe("RCPT");
    expect(smtpCommandOf("  a@x.example\n    SMTP error from remote mail server after end of data:\n    550 User unknown", "a@x.example")).toBe("DATA");
    expect(smtpCommandOf("  a@x.example\n    SMTP error from remote mail server after RCPT TO:<a@x.example>:\n    550 no", "a@x.example")).toBe("RCPT");
    expect(smtpCommandOf("... while talking to mx:\n>>> DATA\n<<< 550 Unknown user a@x.example", "a@x.example")).toBe("DATA");
    expect(smtpCommandOf("550 User unknown", "a@x.example")).toBeUndefined();
  });

  test("DragonFly, qmail, Yahoo and X3 name the command their own way", () => {
    expect(smtpCommandOf("a@x.example\n    mx.x.example [192.0.2.25] did not like our RCPT TO:\n    550 5.2.1 User unknown", "a@x.example")).toBe("RCPT");
    expect(smtpCommandOf("<a@x.example>:\nSorry, no SMTP connection got far enough; most progress was RCPT TO response; remote host said: 550 Unknown user", "a@x.example")).toBe("RCPT");
    expect(smtpCommandOf("<a@x.example>:\n192.0.2.1 does not like recipient.\nRemote host said: 550 no such user", "a@x.example")).toBe("RCPT");
    expect(smtpCommandOf("<a@x.example>:\n192.0.2.1 failed on DATA command\nRemote host said: 554 denied", "a@x.example")).toBe("DATA");
    expect(smtpCommandOf("Remote host said: 550 5.2.1 <a@x.example>... User Unknown [RCPT_TO]", "a@x.example")).toBe("RCPT");
    expect(smtpCommandOf("SMTP:RCPT host 192.0.2.8: 553 5.3.0 <a@x.example>... No such user here", "a@x.example")).toBe("RCPT");
    expect(smtpCommandOf("    >>> RCPT TO:<a@x.example>\n    <<< 550 <a@x.example>: User unknown", "a@x.example")).toBe("RCPT");
  });

  test("the details of the returned message are not a refused command", () => {
    expect(smtpCommandOf("550 - Requested action not taken: no such user here\n\nMessage details:\n  RCPT TO: a@x.example", "a@x.example")).toBeUndefined();
  });
});
