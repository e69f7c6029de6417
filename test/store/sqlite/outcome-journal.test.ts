import { afterEach, expect, test } from "bun:test";
import { appendFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openJournal, readJournal } from "../../../src/store/sqlite/outcome-journal.ts";
import { openSqliteStore } from "../../../src/store/sqlite/index.ts";

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });
const tempDir = () => { const d = mkdtempSync(join(tmpdir(), "postern-journal-")); dirs.push(d); return d; };

test("a journal reads back its entries in order; a line cut short by a kill is skipped", () => {
  const path = join(tempDir(), "us.outcomes");
  const j = openJournal(path);
  j.append({ n: 1 });
  j.append({ n: 2 });
  j.close();
  appendFileSync(path, '{"n": 3, "cut sh');
  expect(readJournal(path)).toEqual([{ n: 1 }, { n: 2 }]);
});

test("opening a journal empties it; once everything it holds is committed it is emptied past its bound", () => {
  const path = join(tempDir(), "us.outcomes");
  writeFileSync(path, '{"old": true}\n');
  const j = openJournal(path);
  expect(readJournal(path)).toEqual([]);
  const big = "x".repeat(300 * 1024);
  const first = j.append({ big });
  const second = j.append({ n: 2 });
  first(true);
  expect(readJournal(path)).toHaveLength(2); // the second is not committed yet
  second(true);
  expect(readJournal(path)).toEqual([]);
  expect(j.close()).toBe(false); // nothing to keep
});

test("a journal whose last outcomes could not be committed is kept at close, for the next server", () => {
  const path = join(tempDir(), "us.outcomes");
  const j = openJournal(path);
  j.append({ n: 1 })(true);
  j.append({ n: 2 })(false); // a full disk at the stop
  expect(j.close()).toBe(true);
  expect(readJournal(path)).toEqual([{ n: 1 }, { n: 2 }]);
  const k = openJournal(join(tempDir(), "eu.outcomes"));
  k.append({ n: 1 }); // never answered
  expect(k.close()).toBe(true);
});

// The child accepts one message, claims its recipient (a commit), records the delivery and is
// killed in the same turn: the outcome waits for the shared commit's interval and never reaches
// the database, only the journal.
const child = (dataDir: string) => `
  import { openSqliteStore } from ${JSON.stringify(new URL("../../../src/store/sqlite/index.ts", import.meta.url).pathname)};
  const store = openSqliteStore(${JSON.stringify(dataDir)}, ["us"]);
  await store.takeLease("n1");
  const z = store.zone("us");
  const now = Date.now();
  await z.createSend({ messages: [{ id: "m1", sendId: "m1", domain: "a.example", messageIdHeader: "<m1@a.example>", from: "x@a.example",
    subject: "s", content: null, raw: new TextEncoder().encode("Subject: s\\r\\n\\r\\nhi\\r\\n"), tags: [], metadata: {}, callbackUrl: null,
    source: "api", isTest: false, size: 20, createdAt: now }],
    recipients: [{ id: "r1", messageId: "m1", email: "to@b.example", rcptDomain: "b.example", kind: "to", status: "queued", attempts: 0,
      nextAttemptAt: now, firstAttemptAt: null, expiresAt: now + 86400000, lastCode: null, lastResponse: null, mx: null, updatedAt: now }],
    attachments: [], events: [] });
  const claimed = await z.claimKeys(now, { owner: "n1", leaseMs: 600000 }, [{ key: "b.example", limit: 10 }]);
  if (claimed.length !== 1) throw new Error("claim");
  void z.applyOutcomes([{ id: "r1", status: "delivered", attempts: 1, nextAttemptAt: now, firstAttemptAt: now, lastCode: 250,
    lastResponse: "250 ok", mx: "mx.b.example" }],
    [{ id: "e1", type: "delivered", messageId: "m1", recipient: "to@b.example", domain: "a.example", timestamp: now, tags: [], metadata: {} }], [], now);
  process.kill(process.pid, "SIGKILL");
`;

test("an outcome journaled but not committed when the server is killed is applied by the next server before anything is claimed", async () => {
  const dataDir = tempDir();
  const script = join(dataDir, "child.ts");
  writeFileSync(script, child(dataDir));
  const run = Bun.spawn(["bun", script], { stderr: "pipe" });
  expect(await run.exited).not.toBe(0);
  expect(run.signalCode).toBe("SIGKILL");
  expect(readJournal(join(dataDir, "us.outcomes"))).toHaveLength(1);

  // Not committed: a reader that does not take the directory sees the row still claimed.
  const reader = openSqliteStore(dataDir, ["us"]);
  expect((await reader.zone("us").getRecipient("r1"))?.status).toBe("queued");
  await reader.close();

  const store = openSqliteStore(dataDir, ["us"]);
  const lease = await store.takeLease("n1");
  const z = store.zone("us");
  expect(await z.getRecipient("r1")).toMatchObject({ status: "delivered", lastCode: 250 });
  expect((await z.searchEvents({ messageId: "m1", limit: 10 })).map((e) => e.type)).toEqual(["delivered"]);
  // Released at a clean stop: nothing left to replay.
  await lease.release();
  expect(existsSync(join(dataDir, "us.outcomes"))).toBe(false);
  await store.close();
});

test("on a full disk an entry is left out whole: the file keeps only whole lines, and appending resumes when space returns", () => {
  if (process.getuid?.() !== 0) { console.log("skipped: not root, cannot mount a tmpfs"); return; }
  const root = tempDir();
  if (Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", root]).exitCode !== 0) { console.log("skipped: mount failed"); return; }
  try {
    const path = join(root, "us.outcomes");
    const j = openJournal(path);
    j.append({ n: 1 });
    const filler = join(root, "filler");
    writeFileSync(filler, "");
    try { for (;;) appendFileSync(filler, Buffer.alloc(4096, 1)); } catch { /* full */ }
    const done = j.append({ big: "x".repeat(20_000) }); // does not fit: left out, no throw
    done(true);
    expect(readJournal(path)).toEqual([{ n: 1 }]);
    rmSync(filler);
    j.append({ n: 3 });
    expect(readJournal(path)).toEqual([{ n: 1 }, { n: 3 }]);
    j.close();
  } finally {
    Bun.spawnSync(["umount", "-l", root]);
  }
});
