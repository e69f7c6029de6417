// Sign-ins in progress over a real (in-memory SQLite) store: a token opens one, taking it uses it
// up (once, of its own kind, before it expires), a taken one can be put back; the number waiting is
// capped per client address and in all, and expired ones are forgotten before counting.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createPendingSignIns, PENDING_TTL_MS } from "../../../src/core/team/pending-signins.ts";
import { openSqliteStore } from "../../../src/store/sqlite/index.ts";
import type { Store } from "../../../src/core/store-port.ts";

let store: Store;
let t = 1_800_000_000_000;
const now = () => t;
beforeAll(async () => { store = await openSqliteStore(":memory:", ["us"]); });
afterAll(async () => { await store.close(); });

test("used once, of its own kind, until it expires; put back after a wrong code", async () => {
  const p = createPendingSignIns(store.control, now);
  const token = await p.open("oidc", "10.0.0.1", { nonce: "n", verifier: "v" });
  expect(await p.take(token, "code")).toBeNull();
  const again = await p.open("oidc", "10.0.0.1", { nonce: "n2", verifier: "v2" });
  const taken = await p.take(again, "oidc");
  expect(taken).toMatchObject({ kind: "oidc", nonce: "n2", verifier: "v2", client: "10.0.0.1", expiresAt: t + PENDING_TTL_MS });
  expect(await p.take(again, "oidc")).toBeNull();
  await p.restore(taken!);
  expect((await p.take(again, "oidc"))?.nonce).toBe("n2");
  expect(await p.take(null, "oidc")).toBeNull();
  const late = await p.open("oidc", "10.0.0.1", {});
  t += PENDING_TTL_MS;
  expect(await p.take(late, "oidc")).toBeNull();
});

test("capped per client address and in all; expired ones make room", async () => {
  t += PENDING_TTL_MS;
  const p = createPendingSignIns(store.control, now, { total: 5, perClient: 3 });
  for (let i = 0; i < 3; i++) await p.open("oidc", "10.0.0.2", {});
  await expect(p.open("oidc", "10.0.0.2", {})).rejects.toThrow(/from your address/);
  await p.open("oidc", "10.0.0.3", {});
  await p.open("code", "10.0.0.4", {});
  await expect(p.open("oidc", "10.0.0.5", {})).rejects.toThrow(/^too many sign-ins in progress: retry/);
  t += PENDING_TTL_MS;
  await p.open("oidc", "10.0.0.5", {});
  expect(await store.control.countPendingSignIns({})).toBe(1);
});
