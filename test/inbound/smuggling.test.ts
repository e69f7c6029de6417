import { describe, expect, test } from "bun:test";
import { createLineEndingInspector, inspectDataLineEndings, type LineEndingProblem } from "../../src/inbound/smuggling.ts";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const HEAD = "From: a@example.com\r\nTo: b@example.org\r\nSubject: hi\r\n\r\n";

type Row = [name: string, data: string, problem: LineEndingProblem | null, reason?: string];

const ROWS: Row[] = [
  ["accepts a clean CRLF message", `${HEAD}Hello\r\nBye\r\n`, null],
  ["accepts an un-stuffed line holding only a dot", `${HEAD}Hello\r\n.\r\nBye\r\n`, null],
  ["accepts a dot starting a longer line", `${HEAD}Hello\r\n.hidden\r\n..two\r\n`, null],
  ["accepts an empty message", "", null],
  ["finds <LF>.<LF>", `${HEAD}Hello\n.\nMAIL FROM:<x@evil.example>\r\n`, "smuggling", "SMTP smuggling sequence <LF>.<LF>"],
  ["finds <LF>.<CR><LF>", `${HEAD}Hello\n.\r\nMAIL FROM:<x@evil.example>\r\n`, "smuggling", "SMTP smuggling sequence <LF>.<CR><LF>"],
  ["finds <CR><LF>.<LF>", `${HEAD}Hello\r\n.\nMAIL FROM:<x@evil.example>\r\n`, "smuggling", "SMTP smuggling sequence <CR><LF>.<LF>"],
  ["finds <CR>.<LF>", `${HEAD}Hello\r.\nMAIL FROM:<x@evil.example>\r\n`, "smuggling", "SMTP smuggling sequence <CR>.<LF>"],
  ["finds <CR>.<CR>", `${HEAD}Hello\r.\rMAIL FROM:<x@evil.example>\r\n`, "smuggling", "SMTP smuggling sequence <CR>.<CR>"],
  ["finds <CR><LF>.<CR> without LF", `${HEAD}Hello\r\n.\rX\r\n`, "smuggling", "SMTP smuggling sequence <CR><LF>.<CR>"],
  ["finds a dot line with bare LF at the very start", ".\nMAIL FROM:<x@evil.example>\r\n", "smuggling", "SMTP smuggling sequence <CR><LF>.<LF>"],
  ["reports smuggling even after an earlier bare LF", `${HEAD}one\ntwo\r\n\n.\nrest\r\n`, "smuggling", "SMTP smuggling sequence <LF>.<LF>"],
  ["reports a bare LF", `${HEAD}Hello\nBye\r\n`, "bare-lf", "bare <LF> line ending"],
  ["reports a bare CR", `${HEAD}Hello\rBye\r\n`, "bare-cr", "bare <CR> in message"],
  ["reports a trailing bare CR", `${HEAD}Hello\r`, "bare-cr", "bare <CR> in message"],
  ["reports a message written with LF only", "Subject: x\n\nbody\n", "bare-lf", "bare <LF> line ending"],
];

describe("inspectDataLineEndings", () => {
  for (const [name, data, problem, reason] of ROWS) {
    test(name, () => {
      const finding = inspectDataLineEndings(bytes(data));
      expect(finding?.problem ?? null).toBe(problem);
      if (reason) expect(finding?.reason).toBe(reason);
    });
  }

  test("points at the dot of the smuggling sequence", () => {
    const data = `${HEAD}Hello\n.\r\n`;
    expect(inspectDataLineEndings(bytes(data))?.offset).toBe(data.indexOf("\n.") + 1);
  });

  test("points at the first bare LF", () => {
    const data = `${HEAD}a\r\nb\nc\n`;
    expect(inspectDataLineEndings(bytes(data))?.offset).toBe(data.indexOf("b\n") + 1);
  });
});

describe("createLineEndingInspector (DATA as it streams in)", () => {
  // Random messages made of the bytes that matter, cut at random places: the streaming inspector
  // must find exactly what the whole-message one finds, offset included.
  test("finds what the whole-message inspection finds, wherever the pieces are cut", () => {
    let seed = 42;
    const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
    const alphabet = [0x0d, 0x0a, 0x2e, 0x41, 0x0d, 0x0a];
    for (let round = 0; round < 3000; round++) {
      const parts: number[] = [];
      for (let i = 0, n = 1 + rnd(40); i < n; i++) parts.push(...(rnd(3) ? [0x41, 0x0d, 0x0a] : [alphabet[rnd(alphabet.length)]!]));
      const data = new Uint8Array(parts);
      const inspector = createLineEndingInspector();
      for (let at = 0; at < data.length;) { const len = 1 + rnd(5); inspector.push(data.subarray(at, at + len)); at += len; }
      expect(inspector.end()).toEqual(inspectDataLineEndings(data));
    }
  });
  test("a message that goes on in small pieces after a smuggling sequence is not kept whole nor copied per piece", () => {
    const inspector = createLineEndingInspector();
    const start = bytes(`${HEAD}Hello\n.\nMAIL FROM:<x@evil.example>\r\n`);
    inspector.push(start);
    const piece = bytes("x".repeat(62) + "\r\n");
    for (let i = 0; i < 60_000; i++) inspector.push(piece);
    expect(inspector.end()).toEqual({ problem: "smuggling", offset: `${HEAD}Hello\n`.length, reason: "SMTP smuggling sequence <LF>.<LF>" });
  });
});
