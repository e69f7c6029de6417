// The runner: each check over its subjects, a look-up that throws becomes unknown, a shared name is judged once.
import { expect, test } from "bun:test";
import { runChecks } from "../../src/doctor/runner.ts";
import { defineCheck, type DoctorContext, type DomainSubject, type EgressSubject } from "../../src/doctor/types.ts";
import { CHECK_IDS } from "../../src/doctor/registry.ts";

const ctx = { mtaHostname: "mta.test", egress: async () => [] } as unknown as DoctorContext;
const domains: DomainSubject[] = ["a.test", "b.test"].map((name) => ({ kind: "domain", name, bounceDomain: "bounces.shared.test", trackingHost: `email.${name}` }));

test("a throwing look-up is unknown with the error; a shared bounce domain is judged once; ids filter", async () => {
  const broken = defineCheck<DomainSubject, null>({ id: "broken", over: "domain", look: async () => { throw new Error("boom"); }, judge: () => ({ severity: "ok", summary: "", fix: "", data: {} }) });
  const shared = defineCheck<DomainSubject, null>({ id: "shared", over: "domain", look: async () => null,
    judge: (_, s) => [{ subject: s.bounceDomain, severity: "ok", summary: s.name, fix: "", data: {} }] });
  const results = await runChecks(ctx, { domains }, [broken, shared]);
  expect(results.filter((r) => r.id === "broken")).toEqual(domains.map((d) => ({ id: "broken", subject: d.name, severity: "unknown", summary: "the check failed: boom",
    fix: expect.any(String), data: {} })));
  expect(results.filter((r) => r.id === "shared")).toEqual([{ id: "shared", subject: "bounces.shared.test", severity: "ok", summary: "a.test", fix: "", data: {} }]);
  expect((await runChecks(ctx, { domains, ids: ["shared"] }, [broken, shared])).map((r) => r.id)).toEqual(["shared"]);
});

test("the registry holds the contract's check ids", () => {
  expect([...CHECK_IDS].sort()).toEqual(["blocklist", "bounce-mx", "dkim", "dmarc", "dnssec", "ipv6", "port25", "ptr", "spf", "tracking"]);
});

test("a check over egress addresses with none to run over is unknown with the reason, not silent", async () => {
  const ptrLike = defineCheck<EgressSubject, null>({ id: "ptrlike", over: "egress", absent: "no egress address", look: async () => null,
    judge: () => ({ severity: "ok", summary: "", fix: "", data: {} }) });
  expect(await runChecks(ctx, { domains: [] }, [ptrLike])).toEqual([{ id: "ptrlike", subject: "mta.test", severity: "unknown", summary: "no egress address",
    fix: expect.stringMatching(/public_addresses/), data: {} }]);
});
