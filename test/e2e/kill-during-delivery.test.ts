// kill -9 of a sending server loses nothing: every accepted recipient is delivered after a restart
// (at least once: a message on the wire at the moment of the kill may arrive twice, and only those:
// outcomes are written as each recipient finishes, not when its whole destination group does).
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { createApp } from "../../src/app.ts";
import { createLogger } from "../../src/log.ts";
import { writeConfig } from "../helpers/app.ts";
import { startSink } from "../helpers/smtp-sink.ts";

const MESSAGES = 300;
const dir = mkdtempSync(join(tmpdir(), "postern-kill-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function serve(file: string) {
  return Bun.spawn(["bun", join(import.meta.dir, "../../cli/main.ts"), "--config", file, "serve"], { stdout: "pipe", stderr: "pipe" });
}

test("kill -9 during sending loses no accepted message", async () => {
  const sink = await startSink({ delayMs: 40 });
  const file = writeConfig(dir, `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n`);
  const app = await createApp(loadConfig({ file, env: {} }), { log: createLogger({ level: "silent" }) });
  await app.domains.add("example.com");
  await app.domains.verify("example.com", true);
  const principal = { accountId: 1, keyId: "test", kind: "account" as const, domain: null, grants: [] };
  for (let i = 0; i < MESSAGES; i++) {
    await app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" },
      envelopes: [{ to: [{ email: `r${i}@dest.test` }], subject: `m${i}`, text: "x" }] });
  }
  await app.stop();

  const first = serve(file);
  await sink.waitFor(120, 30_000);
  first.kill(9);
  await first.exited;
  const atKill = sink.messages.length;
  expect(atKill).toBeLessThan(MESSAGES);

  const second = serve(file);
  const deadline = Date.now() + 60_000;
  const distinct = () => new Set(sink.messages.flatMap((m) => m.to)).size;
  while (distinct() < MESSAGES && Date.now() < deadline) await Bun.sleep(100);
  second.kill("SIGTERM");
  await second.exited;
  await sink.close();
  expect(distinct()).toBe(MESSAGES);
  // Re-delivered: what was on the wire plus what had its 250 but not yet its outcome written at the
  // kill. Seen here: up to 18 of 300 on a quiet machine (the old per-group writes re-sent 121).
  // Issue #17's aim (under 0.1 %) is not reached yet; this bound keeps the per-recipient writes honest.
  expect(sink.messages.length - MESSAGES).toBeLessThanOrEqual(30);
}, 120_000);
