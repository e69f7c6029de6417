import { expect, test } from "bun:test";
import { createDiskGuard, guardSends, isDiskFull } from "../../src/core/disk-guard.ts";
import { AppError } from "../../src/core/errors.ts";

const MiB = 1024 * 1024;

test("refuses below min_free, with the figures; accepts again once space returns", () => {
  let free = 50 * MiB;
  let t = 0;
  const guard = createDiskGuard({ freeBytes: () => free, minFree: 40 * MiB, now: () => t, probeMs: 1000 });
  expect(guard.mayAccept()).toBe(true);
  // A large write looks at the disk again and counts its own size.
  expect(guard.mayAccept(20 * MiB)).toBe(false);
  free = 30 * MiB;
  t += 1000;
  expect(guard.state()).toEqual({ ok: false, free_bytes: 30 * MiB, min_free_bytes: 40 * MiB });
  expect(() => guard.admit()).toThrow(AppError);
  free = 60 * MiB;
  t += 1000;
  expect(guard.mayAccept()).toBe(true);
});

test("a full-disk write failure refuses for a while even with min_free off, then lets a write try again", () => {
  let t = 0;
  const guard = createDiskGuard({ freeBytes: () => 0, minFree: 0, now: () => t, fullBackoffMs: 5000 });
  expect(guard.mayAccept()).toBe(true);
  const full = Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
  const translated = guard.translate(full) as AppError;
  expect(translated.code).toBe("unavailable");
  expect(translated.reason).toBe("storage");
  expect(guard.mayAccept()).toBe(false);
  t += 5000;
  expect(guard.mayAccept()).toBe(true);
  // Other failures pass through untouched and refuse nothing.
  const other = new Error("constraint failed");
  expect(guard.translate(other)).toBe(other);
  expect(guard.mayAccept()).toBe(true);
});

test("isDiskFull knows SQLite's, the kernel's and PostgreSQL's words", () => {
  expect(isDiskFull({ code: "SQLITE_FULL", message: "x" })).toBe(true);
  expect(isDiskFull({ code: "ENOSPC" })).toBe(true);
  expect(isDiskFull({ code: "53100" })).toBe(true);
  expect(isDiskFull(new Error("SQLiteError: database or disk is full"))).toBe(true);
  expect(isDiskFull(new Error("UNIQUE constraint failed"))).toBe(false);
});

test("guarded sends: refused before writing when low, a full-disk failure becomes the refusal", async () => {
  let free = 10 * MiB;
  let calls = 0;
  let fail: Error | null = null;
  const guard = createDiskGuard({ freeBytes: () => free, minFree: 20 * MiB, now: () => 0, probeMs: 0 });
  const sender = guardSends({ send: async (_p: unknown, _r: unknown) => { calls++; if (fail) throw fail; return { id: "m" } as never; } }, guard);
  const req = { domain: "example.com", source: "cli", from: { email: "a@example.com" }, envelopes: [{ to: [{ email: "b@example.org" }], subject: "s", text: "x" }] };
  await expect(sender.send({} as never, req)).rejects.toMatchObject({ code: "unavailable", reason: "storage" });
  expect(calls).toBe(0);
  free = 100 * MiB;
  fail = Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
  await expect(sender.send({} as never, req)).rejects.toMatchObject({ code: "unavailable", reason: "storage" });
  expect(calls).toBe(1);
});
