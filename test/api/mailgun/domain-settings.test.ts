// A Mailgun domain's SMTP credentials and tracking settings (src/api/mailgun/domain-settings.ts)
// through the official mailgun.js client against a real postern.
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { startHarness, type MailgunHarness } from "./helpers.ts";

// Real servers and an SMTP sink on a shared 2-core machine: generous, never timing-based.
setDefaultTimeout(60_000);

let h: MailgunHarness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });

describe("SMTP credentials through mailgun.js", () => {
  test("create, list, change the password, delete one and delete all", async () => {
    const creds = h.mg.domains.domainCredentials;
    expect(await creds.create("example.com", { login: "alice", password: "first-password" })).toEqual({ status: 200, message: "Created 1 credentials pair(s)" });
    await creds.create("example.com", { login: "bob@example.com", password: "bob-password-1" });
    const list = await creds.list("example.com", { limit: 10, skip: 0 });
    expect(list.totalCount).toBe(2);
    expect(list.items.map((c) => c.login)).toEqual(["alice@example.com", "bob@example.com"]);
    expect(new Date(list.items[0]!.created_at as unknown as string).getTime()).toBeGreaterThan(0);
    expect(await creds.update("example.com", "alice", { password: "second-password" })).toEqual({ status: 200, message: "Password changed" });
    expect(await h.t.app.access.authenticateSmtp("alice@example.com", "second-password")).not.toBeNull();
    expect((await creds.update("example.com", "nobody", { password: "whatever" }).catch((e) => e)).status).toBe(404);
    expect(await creds.destroy("example.com", "alice")).toEqual({ status: 200, message: "Credentials have been deleted", spec: "alice@example.com" });
    expect(await creds.destroyAll("example.com")).toEqual({ status: 200, message: "All domain credentials have been deleted", count: 1 });
    expect((await creds.list("example.com", { limit: 10, skip: 0 })).items).toEqual([]);
    const short = await creds.create("example.com", { login: "x", password: "123" }).catch((e) => e);
    expect(short.status).toBe(400);
  });
});

describe("tracking settings through mailgun.js", () => {
  test("get and update open, click and unsubscribe", async () => {
    const tracking = h.mg.domains.domainTracking;
    expect(await tracking.getTracking("example.com")).toMatchObject({ open: { active: false }, click: { active: false }, unsubscribe: { active: false } });
    expect(await tracking.updateTracking("example.com", "open", { active: true })).toEqual({ message: "Domain tracking settings have been updated", open: { active: true } });
    await tracking.updateTracking("example.com", "click", { active: "htmlonly" } as never);
    await tracking.updateTracking("example.com", "unsubscribe", { active: true, html_footer: "<p>bye</p>", text_footer: "bye" } as never);
    expect(await tracking.getTracking("example.com")).toMatchObject({ open: { active: true }, click: { active: true }, unsubscribe: { active: true } });
    const d = (await h.t.app.domains.get("example.com"))!;
    expect([d.openTracking, d.clickTracking, d.unsubscribeTracking]).toEqual([true, true, true]);
    await tracking.updateTracking("example.com", "open", { active: false });
    expect((await h.t.app.domains.get("example.com"))!.openTracking).toBe(false);
  });
});
