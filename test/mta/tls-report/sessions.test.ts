// Counting sessions (RFC 8460 §4.3) into a real SQLite store: a failure keeps its two ends and an
// MTA-STS session its policy's lines; a success is counted without IPs; a policy too long to be
// part of the stored key is counted without its lines.
import { expect, test } from "bun:test";
import { dayOf } from "../../../src/mta/tls-report/report.ts";
import { createTlsSessionCounter } from "../../../src/mta/tls-report/sessions.ts";
import { openSqliteStore } from "../../../src/store/sqlite/index.ts";

test("facts become counts: IPs only on failures, the policy's lines when short enough", async () => {
  const store = openSqliteStore(":memory:", ["us"]);
  const at = Date.UTC(2026, 10, 27, 9);
  const counter = createTlsSessionCounter({ store, now: () => at });
  const lines = ["version: STSv1", "mode: enforce", "mx: mx.a.test", "max_age: 86400"];
  const fact = { domain: "A.test", mxHost: "MX.a.test", policy: "mta-sts" as const, policyString: lines, sendingIp: "127.0.0.1", receivingIp: "127.0.0.2" };
  counter.record({ ...fact, result: "success" });
  counter.record({ ...fact, result: "success", sendingIp: "127.0.0.3" });
  counter.record({ ...fact, result: "certificate-expired" });
  counter.record({ ...fact, result: "certificate-expired", policyString: [...lines, ...Array.from({ length: 200 }, (_, i) => `mx: mx${i}.a.test`)] });
  await counter.stop();
  const ok = { policyDomain: "a.test", policyType: "sts" as const, mxHost: "mx.a.test" };
  expect(await store.control.tlsSessions(dayOf(at))).toEqual([
    { ...ok, result: "certificate-expired", sendingIp: "127.0.0.1", receivingIp: "127.0.0.2", count: 1 },
    { ...ok, result: "certificate-expired", sendingIp: "127.0.0.1", receivingIp: "127.0.0.2", policyString: lines, count: 1 },
    { ...ok, result: "success", policyString: lines, count: 2 }]);
  await store.close();
});
