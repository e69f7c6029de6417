// Linking an OpenID Connect identity to a console user, on a real store: by issuer and subject;
// at a first sign-in by verified email only, never moving a link; auto_create makes an analyst.
import { expect, test } from "bun:test";
import { openSqliteStore } from "../../../src/store/sqlite/index.ts";
import { createUserService } from "../../../src/core/team/users.ts";
import { userForOidc } from "../../../src/core/team/oidc-link.ts";
import type { IdClaims } from "../../../src/core/team/id-token.ts";

const id = (sub: string, email?: string, verified = true): IdClaims => ({ iss: "https://idp.test", sub, aud: "c", exp: 0, iat: 0, email, email_verified: verified });

test("link by verified email once, then by subject; never re-linked; unknown emails refused unless auto_create", async () => {
  const store = await openSqliteStore(":memory:", ["us"]);
  const c = store.control;
  const users = createUserService({ store: c, now: Date.now });
  await users.add(null, { email: "amy@example.com", role: "admin" });
  const link = (claims: IdClaims, autoCreate = false) => userForOidc(claims, { store: c, now: Date.now, autoCreate });
  await expect(link(id("s1", "amy@example.com", false))).rejects.toThrow(/no verified email/);
  const amy = await link(id("s1", "AMY@example.com"));
  expect(amy).toMatchObject({ email: "amy@example.com", role: "admin", oidcIssuer: "https://idp.test", oidcSubject: "s1" });
  expect((await link(id("s1", "changed@example.com"))).id).toBe(amy.id);
  await expect(link(id("s2", "amy@example.com"))).rejects.toThrow(/already linked/);
  await expect(link(id("s3", "new@example.com"))).rejects.toThrow(/no console user is new@example\.com/);
  const created = await link(id("s3", "new@example.com"), true);
  expect(created).toMatchObject({ email: "new@example.com", role: "analyst", oidcSubject: "s3", passwordHash: "" });
  expect((await users.list()).map((u) => [u.email, u.oidc])).toEqual([["amy@example.com", true], ["new@example.com", true]]);
  await store.close();
});
