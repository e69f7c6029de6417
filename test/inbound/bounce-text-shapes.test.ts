// A stranger's notice costs one pass however it is shaped (src/inbound/bounce-text.ts): long runs, long lines and a
// hundred recipients over MBs of text. A reading that goes back over what it read runs past the test's timeout.
import { describe, expect, test } from "bun:test";
import { parseBounceText, withTextEvidence } from "../../src/inbound/bounce-text.ts";
import type { BounceRecipient } from "../../src/inbound/dsn.ts";

const fromDaemon = (text: string, subject: string) =>
  parseBounceText({ text, excluded: [], fromAddress: "MAILER-DAEMON@mx.sender.example", subject })?.recipients[0];
const failed = (finalRecipient: string, extra: Partial<BounceRecipient> = {}): BounceRecipient => ({ finalRecipient, action: "failed", status: "5.0.0", ...extra });

describe("a DSN's text part read against a hundred recipients", () => {
  test("a hundred recipients named once above a long text each find their reply without reading all of it again", () => {
    const many = Array.from({ length: 100 }, (_, i) => failed(`u${i}@x.example`));
    const text = many.map((r) => `<${r.finalRecipient}>:\n`).join("") + "x\n".repeat(2_500_000) + "550 5.1.1 no such user\n";
    const out = withTextEvidence(many, text);
    expect(out.map((r) => r.diagnostic?.text)).toEqual(many.map(() => "550 5.1.1 no such user"));
  });
  test("a long reply that a hundred recipients come to is read once", () => {
    const many = Array.from({ length: 100 }, (_, i) => failed(`u${i}@x.example`));
    const words = (n: number) => "w ".repeat(n);
    const reply = `550 5.1.1 no such user ${words(500)}`.slice(0, 1000);
    const own = many.map((r) => `<${r.finalRecipient}>:\n`).join("") + `550 5.1.1 no such user\n${Array(6).fill(`  ${words(500_000)}`).join("\n")}\n`;
    expect(withTextEvidence(many, own).map((r) => r.diagnostic?.text)).toEqual(many.map(() => reply));
    const sameLine = `${many.map((r) => `<${r.finalRecipient}>`).join(" ")} 550 5.1.1 no such user ${words(2_000_000)}\n`;
    expect(withTextEvidence(many, sameLine).map((r) => r.diagnostic?.text)).toEqual(many.map(() => reply));
  });
});

describe("a stranger's notice is read in one pass however it is shaped", () => {
  const spaces = " ".repeat(300_000);
  test("a long run of spaces inside a reply", () => {
    expect(fromDaemon(`a@x.example\n550 5.1.1 no such${spaces}user\n`, "Undeliverable")).toMatchObject({ finalRecipient: "a@x.example",
      diagnostic: { code: 550, enhancedCode: "5.1.1", text: "550 5.1.1 no such user" } });
  });
  test("a long run of spaces after \"sent\"", () => {
    expect(fromDaemon(`Your message was sent${spaces}to <a@x.example> and refused.\n`, "Undeliverable")?.finalRecipient).toBe("a@x.example");
    expect(fromDaemon(`Failed recipient:${spaces}a@x.example\n`, "Undeliverable")?.finalRecipient).toBe("a@x.example");
  });
  test("a line of dashes", () => {
    const r = fromDaemon(`a@x.example\n550 5.1.1 no such user\n${"-".repeat(300_000)}\n--- Original message ---\nSubject: hi\n`, "Undeliverable");
    expect(r?.diagnostic?.text).toBe("550 5.1.1 no such user");
  });
  test("a subject of any length, when it is all a notice says", () => {
    const subject = `Undeliverable: ${"ip ".repeat(100_000)}`;
    const r = parseBounceText({ text: "..\n", excluded: [], fromAddress: "MAILER-DAEMON@x.example", subject, trusted: true })?.recipients[0];
    expect(r?.diagnostic?.text).toBe(subject.slice(0, 1000));
  });
  test("a hundred recipients named above a long text each read it once", () => {
    const addresses = Array.from({ length: 100 }, (_, i) => `u${i}@x.example`);
    const text = addresses.map((a) => `<${a}>:\n`).join("") + "the message could not be delivered\n".repeat(400_000);
    const r = parseBounceText({ text, excluded: [], fromAddress: "MAILER-DAEMON@q.example", subject: "Undeliverable" });
    expect(r?.recipients.map((x) => x.finalRecipient)).toEqual(addresses);
    expect(r?.recipients[99]?.diagnostic?.text).toBe(Array(3).fill("the message could not be delivered").join(" "));
  });
});
