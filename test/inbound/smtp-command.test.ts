import { describe, expect, test } from "bun:test";
import { smtpCommandOf, smtpCommandsOf } from "../../src/inbound/smtp-command.ts";

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

  test("each of a hundred addresses gets its command, a long notice read once for all", () => {
    const addresses = Array.from({ length: 100 }, (_, i) => `u${i}@x.example`);
    const text = "<u0@x.example>: 550 no (in reply to RCPT TO command)\n" + addresses.slice(1).map((a) => `<${a}>:\n`).join("") +
      "after for in reply to did not like our x\n".repeat(400_000) + "<u99@x.example>: (in reply to end of DATA command)\n";
    // Each address's own command is the first said after its mention; the notice's first serves one it does not name.
    expect(smtpCommandsOf(text, [...addresses, "", "v@x.example"])).toEqual(["RCPT", ...addresses.slice(1).map(() => "DATA"), "RCPT", "RCPT"]);
    expect(smtpCommandsOf("x <a@x.example> (in reply to MAIL FROM command) <b@x.example> in reply to DATA", ["b@x.example", "a@x.example", "c@x.example"]))
      .toEqual(["DATA", "MAIL", "MAIL"]);
  });
});
