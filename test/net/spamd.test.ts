// The spamd client against a real SpamAssassin spamd (Debian's spamd, .ci/run installs it), and
// against a peer that never answers or answers garbage.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:net";
import { parseSpamdAddress, parseSpamdAnswer, spamdReport, SpamdError } from "../../src/net/spamd.ts";
import { startSpamd, type Spamd } from "../helpers/spamd.ts";

const GTUBE = "XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X";
const message = (body: string) => new TextEncoder().encode(
  `From: Zoe <zoe@sender.example>\r\nTo: support@in.example.com\r\nSubject: hello\r\nMessage-ID: <m1@sender.example>\r\nDate: Tue, 24 Nov 2026 10:00:00 +0000\r\n\r\n${body}\r\n`);

let spamd: Spamd;
beforeAll(async () => { spamd = await startSpamd(); }, 90_000);
afterAll(async () => { await spamd?.stop(); });

describe("spamd REPORT", () => {
  test("a plain message is scored under the threshold, with SpamAssassin's report", async () => {
    const v = await spamdReport(message("Hello, see you tomorrow."), { host: "127.0.0.1", port: spamd.port, timeoutMs: 20_000 });
    expect(v.isSpam).toBe(false);
    expect(v.threshold).toBe(5);
    expect(v.score).toBeLessThan(5);
    expect(v.scoreText).toMatch(/^-?\d+(\.\d+)?$/);
    expect(v.report).toContain("Content analysis details:");
  }, 30_000);
  test("GTUBE is spam and the report names the rule", async () => {
    const v = await spamdReport(message(GTUBE), { host: "127.0.0.1", port: spamd.port, timeoutMs: 20_000 });
    expect(v.isSpam).toBe(true);
    expect(v.score).toBeGreaterThanOrEqual(999);
    expect(v.report).toContain("GTUBE");
  }, 30_000);
});

describe("failures are errors, in bounded time", () => {
  const servers: Server[] = [];
  afterAll(() => servers.forEach((s) => s.close()));
  const peer = (onConn: (s: import("node:net").Socket) => void) => new Promise<number>((resolve) => {
    const s = createServer(onConn).listen(0, "127.0.0.1", () => resolve((s.address() as { port: number }).port));
    servers.push(s);
  });

  test("a peer that never answers times out", async () => {
    const port = await peer(() => {});
    const start = performance.now();
    await expect(spamdReport(message("x"), { host: "127.0.0.1", port, timeoutMs: 300 })).rejects.toThrow(/within 300 ms/);
    expect(performance.now() - start).toBeLessThan(5_000);
  });
  test("a refused connection and a garbled answer are SpamdErrors", async () => {
    const closed = await peer((s) => s.end("HTTP/1.1 400 Bad Request\r\n\r\n"));
    await expect(spamdReport(message("x"), { host: "127.0.0.1", port: closed, timeoutMs: 2_000 })).rejects.toBeInstanceOf(SpamdError);
    const gone = await peer(() => {});
    servers.pop()!.close();
    await Bun.sleep(50);
    await expect(spamdReport(message("x"), { host: "127.0.0.1", port: gone, timeoutMs: 2_000 })).rejects.toBeInstanceOf(SpamdError);
  });
  test("answers and addresses are parsed strictly", () => {
    expect(parseSpamdAnswer(Buffer.from("SPAMD/1.1 0 EX_OK\r\nContent-length: 3\r\nSpam: True ; 15.5 / 5.0\r\n\r\nabc"))).toEqual(
      { isSpam: true, score: 15.5, scoreText: "15.5", threshold: 5, report: "abc" });
    expect(() => parseSpamdAnswer(Buffer.from("SPAMD/1.1 76 Bad header line\r\n\r\n"))).toThrow(/76/);
    expect(parseSpamdAddress("127.0.0.1:7830")).toEqual({ host: "127.0.0.1", port: 7830 });
    expect(parseSpamdAddress("[::1]")).toEqual({ host: "::1", port: 783 });
    expect(() => parseSpamdAddress("host:99999")).toThrow();
  });
});
