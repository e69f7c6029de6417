import { expect, test } from "bun:test";
import { packContent, packRaw, unpackContent, unpackRaw } from "../../../src/store/sqlite/body-codec.ts";
import { openDatabase } from "../../../src/store/sqlite/db.ts";
import { ZONE_MIGRATIONS } from "../../../src/store/sqlite/migrations.ts";
import { createZoneStore } from "../../../src/store/sqlite/zone.ts";
import { createGroupCommit } from "../../../src/store/sqlite/group-commit.ts";

const NOW = 1_700_000_000_000;
const html = `{"html":"<p>${"Hello, world. Ünïcode ✓ ".repeat(200)}</p>"}`;
const mime = new TextEncoder().encode(`From: a@a.test\r\nTo: b@b.test\r\nSubject: s\r\n\r\n${"line of body text\r\n".repeat(300)}`);
const message = (id: string, content: string | null, raw: Uint8Array | null) => ({ id, sendId: id, domain: "a.test", messageIdHeader: `<${id}@x>`,
  from: "a@a.test", subject: "s", content, raw, tags: [], metadata: {}, callbackUrl: null, source: "native", isTest: false, size: 1, createdAt: NOW });

test("a body is stored compressed and read back as it was sent", async () => {
  const db = openDatabase(":memory:", ZONE_MIGRATIONS);
  const z = createZoneStore("us", db, createGroupCommit(db));
  await z.createSend({ messages: [message("m1", html, null), message("m2", null, mime), message("m3", "{}", null)], recipients: [], attachments: [], events: [] });
  const stored = db.query("SELECT id, typeof(content) AS c, typeof(raw) AS r, length(content) AS cl, length(raw) AS rl FROM messages ORDER BY id").all() as
    { id: string; c: string; r: string; cl: number; rl: number }[];
  expect(stored.map((s) => [s.id, s.c, s.r])).toEqual([["m1", "blob", "null"], ["m2", "null", "blob"], ["m3", "text", "null"]]);
  expect(stored[0]!.cl).toBeLessThan(html.length / 4);
  expect(stored[1]!.rl).toBeLessThan(mime.length / 4);
  expect((await z.getMessage("m1"))?.content).toBe(html);
  expect((await z.getMessage("m2"))?.raw).toEqual(mime);
  expect((await z.getMessage("m3"))?.content).toBe("{}");
  expect((await z.listMessagesBySend("m1"))[0]?.content).toBe(html);
});

test("rows written before compression (plain text and bytes) read as they are", async () => {
  const db = openDatabase(":memory:", ZONE_MIGRATIONS);
  const z = createZoneStore("us", db, createGroupCommit(db));
  db.query(`INSERT INTO messages (id, send_id, domain, message_id_header, mail_from, subject, content, raw, tags, metadata, source, is_test, size, created_at)
    VALUES (?, ?, 'a.test', '<x>', 'a@a.test', 's', ?, ?, '[]', '{}', 'native', 0, 1, ?)`).run("old1", "old1", html, null, NOW);
  db.query(`INSERT INTO messages (id, send_id, domain, message_id_header, mail_from, subject, content, raw, tags, metadata, source, is_test, size, created_at)
    VALUES (?, ?, 'a.test', '<x>', 'a@a.test', 's', ?, ?, '[]', '{}', 'native', 0, 1, ?)`).run("old2", "old2", null, mime, NOW);
  expect((await z.getMessage("old1"))?.content).toBe(html);
  expect((await z.getMessage("old2"))?.raw).toEqual(mime);
});

test("small or incompressible bodies stay plain; bytes that start like a compressed frame survive", () => {
  expect(packContent("short")).toBe("short");
  expect(packContent(null)).toBeNull();
  const noise = crypto.getRandomValues(new Uint8Array(4096));
  noise[0] = 0x41;
  expect(packRaw(noise)).toBe(noise);
  const lookalike = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3]);
  expect(unpackRaw(packRaw(lookalike))).toEqual(lookalike);
  expect(unpackContent(packContent(html))).toBe(html);
});
