// The classifier against the reply texts receivers publish and receiving servers send
// (test/fixtures/bounces/published-replies.tsv): the category each reply's own explanation gives, bare and as a DSN
// refusing RCPT or DATA with the status the reply carries; a temporary (4xx) reply only never reads as hard.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bounceCategory, classifyBounce, type BounceCategory } from "../../../src/core/bounce/index.ts";

const rows = readFileSync(join(import.meta.dir, "../../fixtures/bounces/published-replies.tsv"), "utf8").split("\n")
  .filter((l) => l.trim() && !l.startsWith("#")).map((l) => {
    const [want, reply, source] = l.split("\t");
    return { want: want! as BounceCategory, reply: reply!, source: source ?? "" };
  });

/** The reply code and the status a DSN would carry for it ("550 5.7.1 ..." → 5.7.1; "550 ..." → 5.0.0). */
function statusOf(reply: string): { temporary: boolean; status: string } {
  const m = /^([245]\d\d)[ -](?:([245]\.\d{1,3}\.\d{1,3})\s)?/.exec(reply);
  return { temporary: m?.[1]?.startsWith("4") ?? false, status: m?.[2] ?? (m ? `${m[1]![0]}.0.0` : "5.0.0") };
}

describe("receivers' published and sent replies", () => {
  test("the file holds hundreds of replies, each with a category", () => {
    expect(rows.length).toBeGreaterThan(600);
    expect(rows.every((r) => ["hard", "soft", "block"].includes(r.want))).toBe(true);
  });
  for (const { want, reply, source } of rows) {
    test(`${want} ← ${reply.slice(0, 80)} (${source.slice(0, 40)})`, () => {
      const { temporary, status } = statusOf(reply);
      for (const ctx of [{}, { command: "RCPT", status, enhancedCode: status }, { command: "DATA", status, enhancedCode: status }]) {
        const got = bounceCategory(classifyBounce({ text: reply, ...ctx }).bounceClass);
        // A 4xx reply is deferred whatever its class: it must only never read as hard.
        if (temporary) expect({ ctx, hard: got === "hard" }).toEqual({ ctx, hard: false });
        else expect({ ctx, got }).toEqual({ ctx, got: want });
      }
    });
  }
});
