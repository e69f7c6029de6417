// The dnssec check: a verdict per [mta] dane mode, and the probe run for real against the signed
// chain of dane-world.ts behind a validating unbound and one that does not validate.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createDnssecClient } from "../../../src/dns.ts";
import { dnssec, judgeDnssec } from "../../../src/doctor/checks/dnssec.ts";
import type { DoctorContext } from "../../../src/doctor/types.ts";
import { startDaneWorld, type DaneWorld } from "../../helpers/dane-world.ts";

let world: DaneWorld;
beforeAll(async () => { world = await startDaneWorld([], "127.0.0.1"); }, 60_000);
afterAll(async () => { await world?.stop(); });

test.each([
  ["off: nothing asked", "off", null, "ok"],
  ["a validating resolver", "auto", { state: "on", reason: "validated" }, "ok"],
  ["auto, and the resolver does not validate: DANE stays off", "auto", { state: "off", reason: "no AD" }, "warn"],
  ["on, and the resolver does not validate", "on", { state: "off", reason: "no AD" }, "error"],
] as const)("%s", (_n, mode, probe, severity) => {
  const v = judgeDnssec({ mode, probe: probe ? { ...probe } : null });
  expect(v.severity).toBe(severity);
  expect(v.fix === "").toBe(severity === "ok");
});

const run = async (server: string, mode: "auto" | "on") => {
  const ctx = { dnssec: { mode, probe: () => createDnssecClient([server], { timeoutMs: 2000 }).probe("broken.test") } } as unknown as DoctorContext;
  return dnssec.judge(await dnssec.look(ctx, { kind: "machine", name: "machine" } as never), { kind: "machine", name: "machine" } as never);
};

test("the real probe: ok through the validating unbound, error with dane = on through the other one", async () => {
  expect((await run(world.validating, "on"))).toMatchObject([{ subject: "resolver", severity: "ok" }]);
  const [bad] = (await run(world.plain, "on")) as { severity: string; summary: string }[];
  expect(bad).toMatchObject({ severity: "error", data: { mode: "on", state: "off" } });
  expect(bad!.summary).toContain("without AD");
}, 30_000);
