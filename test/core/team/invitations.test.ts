// Invitations on a real store with a fake clock: the link is valid 7 days and once; the mail goes
// through the mailer handed in (the send path in the app); a refused mail still leaves the link.
import { expect, test } from "bun:test";
import { openSqliteStore } from "../../../src/store/sqlite/index.ts";
import { createUserService } from "../../../src/core/team/users.ts";
import { createInvitations, INVITATION_TTL_MS } from "../../../src/core/team/invitations.ts";

test("an invitation works once within 7 days and never after", async () => {
  const store = await openSqliteStore(":memory:", ["us"]);
  let now = 1_800_000_000_000;
  const sent: { to: string; text: string }[] = [];
  const users = createUserService({ store: store.control, now: () => now });
  const inv = createInvitations({ store: store.control, users, now: () => now, publicUrl: "https://mail.example.com/",
    mail: async (to, _subject, text) => { sent.push({ to, text }); return true; } });
  const a = await inv.invite("owner", { email: "a@example.com", role: "developer" });
  expect(a.sent).toBe(true);
  expect(a.link).toMatch(/^https:\/\/mail\.example\.com\/ui\/#\/accept\/[0-9a-z]{30,}$/);
  expect(sent[0]!.to).toBe("a@example.com");
  expect(sent[0]!.text).toContain(a.link);
  const tokenOf = (link: string) => link.slice(link.lastIndexOf("/") + 1);
  now += INVITATION_TTL_MS - 1000;
  expect(await inv.accept(tokenOf(a.link), "a fine long password")).toEqual({ email: "a@example.com" });
  await expect(inv.accept(tokenOf(a.link), "a fine long password")).rejects.toThrow(/unknown, already used or expired/);
  expect((await users.authenticate("a@example.com", "a fine long password")).email).toBe("a@example.com");

  const b = await createInvitations({ store: store.control, users, now: () => now, publicUrl: "https://mail.example.com", mail: async () => false })
    .invite(null, { email: "b@example.com", role: "analyst" });
  expect(b.sent).toBe(false);
  now += INVITATION_TTL_MS + 1;
  await expect(inv.accept(tokenOf(b.link), "a fine long password")).rejects.toThrow(/expired/);
  await expect(inv.invite("admin", { email: "c@example.com", role: "owner" })).rejects.toThrow(/may not/);
  await store.close();
});
