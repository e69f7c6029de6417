import { describe, expect, test } from "bun:test";
import { gzipSync } from "node:zlib";
import { readJsonBody } from "../../../src/api/sendgrid/body.ts";
import { checkBody, checkedJsonText } from "../../../src/api/request-guard.ts";

const URL_ = "http://127.0.0.1/v3/mail/send";
const post = (body: string | Uint8Array, headers: Record<string, string> = { "content-type": "application/json" }) => new Request(URL_, { method: "POST", headers, body });

describe("readJsonBody", () => {
  test("parses the text the request guard decoded, without reading the body again", async () => {
    const checked = await checkBody(post(' {"a": [1, "é"]} '), URL_);
    expect(checkedJsonText(checked)?.text).toBe(' {"a": [1, "é"]} ');
    expect(await readJsonBody(checked, 1000)).toEqual({ a: [1, "é"] });
    expect(checked.bodyUsed).toBe(false);
  });

  test("the byte limit holds for the decoded text too: 413 above it", async () => {
    const checked = await checkBody(post(JSON.stringify({ a: "x".repeat(100) })), URL_);
    await expect(readJsonBody(checked, 50)).rejects.toMatchObject({ code: "too_large" });
  });

  test("a request the guard did not see, and a gzipped one, are read from their bytes", async () => {
    expect(await readJsonBody(post('{"b":2}'), 1000)).toEqual({ b: 2 });
    const gz = await checkBody(post(gzipSync(Buffer.from('{"c":3}')), { "content-type": "application/json", "content-encoding": "gzip" }), URL_);
    expect(await readJsonBody(gz, 1000)).toEqual({ c: 3 });
  });

  test("an empty or broken body is a 400", async () => {
    await expect(readJsonBody(await checkBody(post("   "), URL_), 1000)).rejects.toMatchObject({ code: "invalid" });
    await expect(readJsonBody(await checkBody(post("{nope"), URL_), 1000)).rejects.toMatchObject({ code: "invalid" });
  });
});
