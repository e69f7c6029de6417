// The native GET /test: the identity of the calling key.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startNative, type NativeEnv } from "./setup.ts";
import { tokenId } from "../../../src/api/native/mapper.ts";

setDefaultTimeout(60_000);

let env: NativeEnv;
beforeAll(async () => { env = await startNative(); });
afterAll(async () => { await env.close(); });

describe("GET /test", () => {
  test("answers the identity of a domain (sending) key", async () => {
    const res = await env.call("/test", { key: env.t.domainKey });
    expect(res.status).toBe(200);
    const domain = await env.t.app.domains.get("example.com");
    const keyId = env.t.domainKey.split(".")[1]!;
    expect(await res.json()).toEqual({ auth: { cid: 1, did: domain!.id, tid: tokenId(keyId), domain: "example.com", role: "sending" } });
  });

  test("answers did 0, an empty domain and role primary for an account key", async () => {
    const body = await (await env.call("/test")).json();
    expect(body.auth).toMatchObject({ cid: 1, did: 0, domain: "", role: "primary" });
    expect(Number.isSafeInteger(body.auth.tid)).toBe(true);
    expect((await (await env.call("/test")).json()).auth.tid).toBe(body.auth.tid);
  });

  test("answers 401 with message and status for a missing or wrong key", async () => {
    const missing = await fetch(`${env.base}/test`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ message: "Unauthorized", status: 401 });
    expect((await env.call("/test", { key: "sk.aaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb" })).status).toBe(401);
  });
});
