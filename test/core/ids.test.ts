import { expect, test } from "bun:test";
import { idPrefixAt, newId, newSecret } from "../../src/core/ids.ts";

test("ids are 20 lower-case base32 characters, unique, and sort by the millisecond they were made in", () => {
  const t = 1_795_000_000_000;
  const ids = Array.from({ length: 100_000 }, (_, i) => newId(t + Math.floor(i / 1000)));
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids.slice(0, 1000)) expect(id).toMatch(/^[0-9abcdefghjkmnpqrstvwxyz]{20}$/);
  expect(ids.every((id, i) => id.startsWith(idPrefixAt(t + Math.floor(i / 1000))))).toBe(true);
  expect(idPrefixAt(t) < idPrefixAt(t + 1)).toBe(true);
  expect(newId(t) < newId(t + 1)).toBe(true);
  // The random half uses every character about equally (50 bits, 10 per id).
  const counts = new Map<string, number>();
  for (const id of ids) for (const c of id.slice(10)) counts.set(c, (counts.get(c) ?? 0) + 1);
  expect(counts.size).toBe(32);
  expect(Math.min(...counts.values()) / Math.max(...counts.values())).toBeGreaterThan(0.9);
});

test("secrets are base32 of their bytes and never repeat", () => {
  expect(newSecret(24)).toMatch(/^[0-9abcdefghjkmnpqrstvwxyz]{39}$/);
  expect(newSecret()).not.toBe(newSecret());
});
