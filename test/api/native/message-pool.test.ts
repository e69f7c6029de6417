// The native API's `pool` field (contract §9): the message goes out from the pool's address; an
// unknown pool is the native 400.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { form, startNative, type NativeEnv } from "./setup.ts";
import { egressToml, peerFor } from "../../helpers/egress.ts";

setDefaultTimeout(60_000);
let env: NativeEnv;
beforeAll(async () => { env = await startNative({ toml: egressToml() }); await env.t.app.mta.scheduler.start(); });
afterAll(async () => { await env.close(); });

const send = (to: string, pool?: string) => env.call("/example.com/messages", { method: "POST",
  body: form([["from", "a@example.com"], ["to", to], ["subject", "s"], ["text", "t"], ...(pool !== undefined ? [["pool", pool] as [string, string]] : [])]) });

test("pool picks the egress pool of the message", async () => {
  expect((await send("pool@dest.test", "bulk")).status).toBe(200);
  expect((await send("plain@dest.test")).status).toBe(200);
  expect(await peerFor(env.sink, "pool@dest.test")).toBe("127.0.0.3");
  expect(await peerFor(env.sink, "plain@dest.test")).toBe("127.0.0.2");
});

test("an unknown pool is a 400 naming the field", async () => {
  const res = await send("x@dest.test", "nope");
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ status: 400, message: expect.stringMatching(/^pool: unknown ip pool "nope"/) });
});
