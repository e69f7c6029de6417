// The sentence that says why in a notice with no reply code (src/inbound/notice-sentences.ts).
import { describe, expect, test } from "bun:test";
import { openingSentence, sentenceAfter } from "../../src/inbound/notice-sentences.ts";
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
