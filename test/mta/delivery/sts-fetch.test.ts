// MTA-STS policy discovery and fetch (RFC 8461 §3, §5.1) with real parts: dnsmasq publishes the
// `_mta-sts` records and the policy hosts' addresses; each policy host serves on 127.44.x.y:443
// with a certificate of the test's own CA (trusted in this process while the file runs). The clock
// is injected: a policy's validity is measured on it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSystemResolver } from "../../../src/dns.ts";
import { fetchStsPolicy, policyLines, type StsPolicy } from "../../../src/mta/delivery/sts-fetch.ts";
import { startDnsmasq, type DnsmasqServer } from "../../helpers/dnsmasq.ts";
import { issued, testCa } from "../../helpers/dane-certs.ts";
import { servePolicy, trustCa, type PolicyHost } from "../../helpers/mta-sts.ts";

const NET = `127.44.${1 + Math.floor(Math.random() * 250)}`;
/** Served as-is: CRLF, max_age before the mx lines, an extension field (RFC 8461 §3.2 allows each). */
const POLICY = "version: STSv1\r\nmode: enforce\r\nmax_age: 604800\r\nmx: mx.good.test\r\nmx: *.good.test\r\nx-note: served as-is\r\n";
const NOW = Date.UTC(2026, 10, 28, 12);

const dir = mkdtempSync(join(tmpdir(), "postern-sts-fetch-"));
let untrust = () => {};
let dns: DnsmasqServer;
const hosts: Record<string, PolicyHost> = {};

beforeAll(async () => {
  const ca = testCa(dir, "ca");
  untrust = trustCa(ca.cert);
  hosts.good = servePolicy(`${NET}.1`, issued(dir, "good", "ca", "mta-sts.good.test"), POLICY);
  // A policy in the body of a 404: only a 200 is a policy (RFC 8461 §3.3).
  hosts.gone = servePolicy(`${NET}.2`, issued(dir, "gone", "ca", "mta-sts.gone.test"), POLICY, 404);
  // A valid certificate, but for another name: the policy host is not who it says.
  hosts.wrong = servePolicy(`${NET}.3`, issued(dir, "wrong", "ca", "mta-sts.elsewhere.test"), POLICY);
  dns = await startDnsmasq([
    { type: "TXT", name: "_mta-sts.good.test", strings: ["v=STSv1; id=20261128"] },
    { type: "A", name: "mta-sts.good.test", value: `${NET}.1` },
    { type: "TXT", name: "_mta-sts.gone.test", strings: ["v=STSv1; id=1"] },
    { type: "A", name: "mta-sts.gone.test", value: `${NET}.2` },
    { type: "TXT", name: "_mta-sts.wrong.test", strings: ["v=STSv1; id=1"] },
    { type: "A", name: "mta-sts.wrong.test", value: `${NET}.3` },
    { type: "TXT", name: "_mta-sts.nohost.test", strings: ["v=STSv1; id=1"] },
    { type: "TXT", name: "none.test", strings: ["v=spf1 -all"] },
  ]);
}, 30_000);

afterAll(async () => {
  for (const h of Object.values(hosts)) h.stop();
  await dns?.stop();
  untrust();
  rmSync(dir, { recursive: true, force: true });
});

const fetchAt = (domain: string, known: StsPolicy | null, now = NOW) => fetchStsPolicy(domain, known, { resolver: createSystemResolver([dns.server]), now: () => now });

describe("a policy fetched", () => {
  test("is parsed, keeps its lines as served, and is valid for its max_age on the injected clock", async () => {
    const p = await fetchAt("good.test", null);
    expect(p).toMatchObject({ id: "20261128", mode: "enforce", mx: ["mx.good.test", "*.good.test"], maxAge: 604800, expires: NOW + 604_800_000 });
    expect(p.lines).toEqual(["version: STSv1", "mode: enforce", "max_age: 604800", "mx: mx.good.test", "mx: *.good.test", "x-note: served as-is"]);
    expect(hosts.good!.requests.at(-1)).toBe("mta-sts.good.test/.well-known/mta-sts.txt");
  });
  test("a known policy still valid under the same id is kept without a fetch; a new id or an expired one is fetched", async () => {
    const known = await fetchAt("good.test", null);
    const asked = hosts.good!.requests.length;
    expect(await fetchAt("good.test", known, NOW + 3_600_000)).toBe(known);
    expect(hosts.good!.requests.length).toBe(asked);
    expect((await fetchAt("good.test", { ...known, id: "older" })).id).toBe("20261128");
    expect(await fetchAt("good.test", known, known.expires + 1)).toMatchObject({ id: "20261128", expires: known.expires + 1 + 604_800_000 });
    expect(hosts.good!.requests.length).toBe(asked + 2);
  });
});

describe("no policy to be had", () => {
  test("no _mta-sts record, or no policy host: none", async () => {
    expect(await fetchAt("none.test", null)).toMatchObject({ mode: "none" });
    expect(await fetchAt("nohost.test", null)).toMatchObject({ mode: "none" });
  });
  test("a 404, or a certificate for another name: none, tried again after an hour; a valid cached policy goes on being applied (§5.1)", async () => {
    for (const domain of ["gone.test", "wrong.test"]) {
      expect(await fetchAt(domain, null)).toEqual({ id: "1", mode: "none", expires: NOW + 3_600_000 });
      const cached: StsPolicy = { id: "0", mode: "enforce", mx: ["mx.x.test"], maxAge: 86400, expires: NOW + 1000, lines: ["version: STSv1"] };
      expect(await fetchAt(domain, cached)).toBe(cached);
    }
    expect(hosts.gone!.requests.length).toBe(2);
    // The TLS handshake failed: no request reached the host with the wrong certificate.
    expect(hosts.wrong!.requests).toEqual([]);
  });
});

test("a policy's lines: line ends of either kind, blank lines left out", () => {
  expect(policyLines("version: STSv1\r\nmode: testing\n\nmx: a.test\r\n")).toEqual(["version: STSv1", "mode: testing", "mx: a.test"]);
});
