// The store contract covers the whole port: every method the port's interfaces declare is called
// somewhere in test/store/contract*.ts, which every engine runs. A new port method fails this
// test until the contract exercises it.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../..");
const PORT_FILES = ["src/core/store-port.ts", "src/core/template-model.ts", "src/core/list-model.ts", "src/core/inbound/model.ts", "src/core/retention-port.ts",
  "src/core/destination-store.ts", "src/core/egress/counter-port.ts", "src/core/receiver-report.ts", "src/core/bot-memory-port.ts",
  "src/core/alerts-port.ts",
  "src/core/tracking-host-port.ts",
  "src/core/team/store-port.ts", "src/core/audit-port.ts",
  "src/core/blocklist-port.ts",
  "src/core/tls-report-port.ts",
  "src/core/tenants.ts",
  "src/core/tenant-quota-port.ts"];

test("every port method is exercised by the store contract", () => {
  const methods = new Set<string>(["zone", "zoneNames"]);
  for (const f of PORT_FILES) {
    for (const m of readFileSync(join(ROOT, f), "utf8").matchAll(/^\s+(\w+)(<[^>]*>)?\(.*\): Promise</gm)) methods.add(m[1]!);
  }
  expect(methods.size).toBeGreaterThan(100);
  const contract = readdirSync(import.meta.dir).filter((f) => /^contract.*\.ts$/.test(f) && !f.endsWith(".test.ts"))
    .map((f) => readFileSync(join(import.meta.dir, f), "utf8")).join("\n");
  expect([...methods].filter((m) => !new RegExp(`\\.${m}\\(`).test(contract))).toEqual([]);
});
