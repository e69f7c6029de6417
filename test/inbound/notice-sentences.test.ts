// The sentence that says why in a notice with no reply code (src/inbound/notice-sentences.ts).
import { describe, expect, test } from "bun:test";
import { openingSentence, reasonAfterMarker, sentenceAfter, sentenceAround } from "../../src/inbound/notice-sentences.ts";
import { parseBounceText } from "../../src/inbound/bounce-text.ts";

describe("a notice's opening", () => {
  // A university's canned notice (mail_manager's suite keeps one): a do-not-reply banner, then what happened, then why.
  const canned = "THIS IS AN AUTOMATED MESSAGE - PLEASE DO NOT REPLY TO THIS MESSAGE AS THE\nACCOUNT IS NOT MONITORED FOR INCOMING EMAIL.\n\n" +
    "A message with the above subject line was sent by you to the Example University\nemail system but could not be delivered.\n\n" +
    "The message contained at least one invalid address in the @uni.example domain.\nThe delivery failure could be the result of:\n";
  test("a banner that only says the message is automated is passed over: the reason comes into reach", () => {
    expect(sentenceAfter(canned, 0)?.text).not.toContain("invalid address");
    expect(openingSentence(canned)?.text).toStartWith("A message with the above subject line");
    expect(openingSentence(canned)?.text).toContain("invalid address");
  });
  test("a first paragraph that states a failure is the reason, banner words or not", () => {
    const said = "This is an automated message: your mail could not be delivered, the mailbox is full.\n\nRegards\n";
    expect(openingSentence(said)?.text).toStartWith("This is an automated message");
  });
  test("a long first paragraph is not a banner", () => {
    const long = "This is an automated message\nline two\nline three\nline four, user unknown\n\nlater\n";
    expect(openingSentence(long)?.text).toStartWith("This is an automated message");
  });
  test("through a VERP path, the whole canned notice reads as the address it names in no words", () => {
    const r = parseBounceText({ text: canned, excluded: [], fromAddress: "unknown_account+canned.response@uni.example", subject: "Re: News", trusted: true });
    expect(r?.recipients[0]?.diagnostic?.text).toContain("invalid address");
  });
});

describe("a reason given after \"due to the following error:\"", () => {
  // A site's own notice (Courriel's stress-test mailbox keeps one, FTGate 2004), sent back to the list address it names.
  const notice = "----- THIS IS AN AUTOMATED ERROR REPLY ---\nPLEASE CHECK THE SPELLING OF THE EMAIL-ADDRESS\n\nDear sender,\n\nYour message\n" +
    "\"Hello\", sent to <list@lists.example>\n\ncannot be delivered due to the following error:\nlist@lists.example - no such mailbox at SITE.EXAMPLE.\n\n" +
    "Generally this means that\na) There really isn't such an address here\n";
  test("the paragraph after the marker is the reason", () => {
    expect(reasonAfterMarker(notice)?.text).toBe("list@lists.example - no such mailbox at SITE.EXAMPLE.");
    expect(reasonAfterMarker("Your message could not be delivered.\n")).toBeUndefined();
  });
  test("a notice naming no recipient of its own (the address is the report's own To) is read from it", () => {
    const r = parseBounceText({ text: notice, excluded: ["list@lists.example"], fromAddress: "mailerror@site.example", subject: "Mail Delivery Error", trusted: true });
    expect(r?.recipients[0]?.diagnostic?.text).toContain("no such mailbox");
  });
});

describe("an opening of a few more lines, where no reply code and no recipient's sentence says why", () => {
  test("a virus scanner's notice names the virus after its greeting and the address (sent to both sender and recipient)", () => {
    const text = "Hello, this is a message from Mail Delivery Subsystem of vscan.example.\n\n*** ATTENTION ***\n\n" +
      "There were problems delivering your message to the following recipient:\n\n\n<office@rcpt.example>\n\n" +
      "Your message was infected with a virus. You should download a virus\nscanner and check your computer for viruses.\n";
    expect(openingSentence(text)?.text).toContain("infected with a virus");
    const r = parseBounceText({ text, excluded: ["office@rcpt.example"], fromAddress: "MAILER-DAEMON@vscan.example", subject: "Message Bounced - Virus Infection", trusted: true });
    expect(r?.recipients[0]?.diagnostic?.text).toContain("infected with a virus");
  });
});

describe("the sentence around a mention", () => {
  test("the line above is its heading when only spaces stand before the mention (Lotus Notes)", () => {
    const text = "User not listed in public Name & Address Book\n   a@x.example\nnext words here\n";
    expect(sentenceAround(text, text.indexOf("a@x"), 11)?.text).toBe("User not listed in public Name & Address Book next words here");
    expect(sentenceAround(text.replace("   a@x", "to a@x"), text.indexOf("a@x"), 11)?.text).toBe("next words here");
  });
  test("words that lead up to the address on its line and state a failure come with it (RFC 3464's 1994 gateway example)", () => {
    const text = "Invalid address - nair_s\n%DIR-E-NODIRMTCH, No matching Directory Entry\nEntry found\n";
    expect(sentenceAround(text, text.indexOf("nair_s"), 6)?.text).toBe("Invalid address %DIR-E-NODIRMTCH, No matching Directory Entry Entry found");
    const field = "Recipient: <a@x.example>\nReason: Mailbox full\n";
    expect(sentenceAround(field, field.indexOf("a@x"), 11)?.text).toBe("Reason: Mailbox full");
  });
  test("mentions far along a line of MBs do not each read back to its start", () => {
    const text = `${"1".repeat(8_000_000)} 1@2.ab`.repeat(2) + "\n";
    const at = text.lastIndexOf("1@2.ab");
    for (let i = 0; i < 60_000; i++) expect(sentenceAround(text, at, 6)).toBeUndefined();
  });
});
