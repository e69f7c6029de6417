// Console certificate state (src/api/console/tls.ts) on a real postern: what /healthz says about
// [tls], for signed-in keys; "off" without [tls]. Certificate files that cannot be read leave the
// listener on plain HTTP and the reason shows here.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startConsole, type ConsoleEnv } from "./setup.ts";

setDefaultTimeout(60_000);
let broken: ConsoleEnv;
let off: ConsoleEnv;
beforeAll(async () => {
  broken = await startConsole({ toml: `[tls]\ncert_file = "/nonexistent/tls.crt"\nkey_file = "/nonexistent/tls.key"\n` });
  off = await startConsole();
});
afterAll(async () => { await broken.close(); await off.close(); });

describe("console certificate state", () => {
  test("an unreadable certificate file is an error with its reason, as in /healthz", async () => {
    const account = await broken.signIn(broken.t.accountKey);
    const state = await (await account.call("GET", "/tls")).json();
    expect(state).toMatchObject({ state: "error" });
    expect(state.error).toMatch(/nonexistent\/tls\.crt/);
    expect(((await (await fetch(`${broken.base}/healthz`)).json()) as { tls: unknown }).tls).toEqual(state);
  });

  test("without [tls] the state is off", async () => {
    const account = await off.signIn(off.t.accountKey);
    expect(await (await account.call("GET", "/tls")).json()).toEqual({ state: "off" });
  });
});
