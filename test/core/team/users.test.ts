// The user service on a real store: checks on add, argon2id passwords, the second factor and
// recovery codes at sign-in, and who may change whom.
import { expect, test } from "bun:test";
import { openSqliteStore } from "../../../src/store/sqlite/index.ts";
import { createUserService, recoveryHash } from "../../../src/core/team/users.ts";
import { base32Encode, totp } from "../../../src/core/team/totp.ts";

test("add checks email, role and password; passwords are argon2id; sign-in asks for the code when TOTP is on", async () => {
  const store = await openSqliteStore(":memory:", ["us"]);
  let now = 1_800_000_000_000;
  const users = createUserService({ store: store.control, now: () => now });
  await expect(users.add(null, { email: "not an email", role: "owner" })).rejects.toThrow(/not an email address/);
  await expect(users.add(null, { email: "a@x.test", role: "root" })).rejects.toThrow(/role must be/);
  await expect(users.add(null, { email: "a@x.test", role: "owner", password: "short" })).rejects.toThrow(/12 to 256/);
  const a = await users.add(null, { email: "A@X.test", role: "owner", password: "long enough password" });
  expect(a.passwordHash).toStartWith("$argon2id$");
  await expect(users.add("developer", { email: "b@x.test", role: "analyst" })).rejects.toThrow(/may not/);
  await expect(users.authenticate("a@x.test", "wrong password!")).rejects.toThrow(/wrong email or password/);
  await expect(users.authenticate("nobody@x.test", "long enough password")).rejects.toThrow(/wrong email or password/);
  expect((await users.authenticate("a@x.test", "long enough password")).id).toBe(a.id);

  const secret = base32Encode(Buffer.from("12345678901234567890"));
  await store.control.updateUser(a.id, { totpSecret: secret, recoveryCodes: [recoveryHash("abcde-fghij")] }, now);
  await expect(users.authenticate("a@x.test", "long enough password")).rejects.toMatchObject({ field: "code" });
  await expect(users.authenticate("a@x.test", "long enough password", "000000")).rejects.toThrow(/wrong code/);
  expect((await users.authenticate("a@x.test", "long enough password", totp(secret, now))).id).toBe(a.id);
  await expect(users.authenticate("a@x.test", "long enough password", totp(secret, now))).rejects.toThrow(/wrong code/);
  expect((await users.authenticate("a@x.test", "long enough password", "ABCDE FGHIJ")).id).toBe(a.id);
  await expect(users.authenticate("a@x.test", "long enough password", "abcde-fghij")).rejects.toThrow(/wrong code/);
  now += 30_000;
  expect((await users.authenticate("a@x.test", "long enough password", totp(secret, now))).id).toBe(a.id);
  await store.close();
});
