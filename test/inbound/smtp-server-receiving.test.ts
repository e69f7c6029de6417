// The inbound listener's recipients for a receiving domain (src/inbound/smtp-server.ts): one list per transaction,
// each address once, at most 1000, whatever a stranger pipelines.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
let smtpPort = 0;
beforeAll(async () => {
  t = await makeTestApp();
  smtpPort = Number((await t.app.start()).smtp!.split(":").pop());
});
afterAll(async () => { await t.close(); });

describe("mail for a receiving domain", () => {
  /** Writes `lines` at once (PIPELINING) after EHLO, then QUIT; returns every reply's code and the ids of the messages taken. */
  async function pipelined(lines: string[]): Promise<{ codes: string[]; ids: string[] }> {
    const { connect } = await import("node:net");
    const socket = connect(smtpPort, "127.0.0.1");
    let buffer = "";
    let notify: (() => void) | null = null;
    socket.on("data", (d) => { buffer += d.toString(); notify?.(); });
    const until = async (re: RegExp) => { while (!re.test(buffer)) await new Promise<void>((r) => { notify = r; setTimeout(r, 200); }); };
    await until(/^220 /m);
    socket.write(["EHLO client.test", ...lines, "QUIT"].map((l) => `${l}\r\n`).join(""));
    await until(/^221 /m);
    socket.destroy();
    const finals = buffer.split("\r\n").filter((l) => /^\d{3} /.test(l));
    return { codes: finals.map((l) => l.slice(0, 3)), ids: finals.flatMap((l) => /received as (\S+)/.exec(l)?.[1] ?? []) };
  }
  const rcptsOf = async (id: string) => (await t.app.store.zone((await t.app.domains.get("example.com"))!.zone).getInbound(id))?.envelope.rcptTo;
  const receiving = async (run: () => Promise<void>) => {
    await t.app.domains.set("example.com", { inbound: true });
    try { await run(); } finally { await t.app.domains.set("example.com", { inbound: false }); }
  };

  // Each RCPT copied the list so far (60,000: 6 s, and 6 s more at DATA) and every repeat was one more recipient.
  test("a repeated RCPT, in any case, is one recipient: 60,000 of them name the address once", () => receiving(async () => {
    const rcpts = Array.from({ length: 60_000 }, (_, i) => `RCPT TO:<${i % 2 ? "Desk" : "desk"}@example.com>`);
    const { codes, ids } = await pipelined(["MAIL FROM:<a@sender.example>", ...rcpts, "DATA", "Subject: many\r\n\r\nhi\r\n."]);
    expect(codes.filter((c) => c === "250")).toHaveLength(2 + 60_000 + 1); // EHLO, MAIL, every RCPT, the message
    expect(await rcptsOf(ids[0]!)).toEqual(["Desk@example.com"]);
  }));

  test("past 1000 recipients RCPT gets 452 and the message goes to the first 1000", () => receiving(async () => {
    const rcpts = Array.from({ length: 1005 }, (_, i) => `RCPT TO:<u${i}@example.com>`);
    const { codes, ids } = await pipelined(["MAIL FROM:<a@sender.example>", ...rcpts, "DATA", "Subject: wide\r\n\r\nhi\r\n."]);
    expect(codes.filter((c) => c === "452")).toHaveLength(5);
    const stored = await rcptsOf(ids[0]!);
    expect(stored).toHaveLength(1000);
    expect(stored!.at(-1)).toBe("u999@example.com");
  }));

  test("the next message on a connection has its own recipients, not the last one's too", () => receiving(async () => {
    const { ids } = await pipelined(["MAIL FROM:<a@sender.example>", "RCPT TO:<desk@example.com>", "DATA", "Subject: first\r\n\r\nhi\r\n.", "MAIL FROM:<a@sender.example>", "RCPT TO:<sales@example.com>", "DATA", "Subject: second\r\n\r\nhi\r\n."]);
    expect(ids).toHaveLength(2);
    expect(await rcptsOf(ids[0]!)).toEqual(["desk@example.com"]);
    expect(await rcptsOf(ids[1]!)).toEqual(["sales@example.com"]);
  }));
});
