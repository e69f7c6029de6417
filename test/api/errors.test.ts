// The core's passing refusals (disk low, server stopping) in each surface's own 503 shape, with Retry-After.
import { expect, test } from "bun:test";
import { ERROR_RENDERERS } from "../../src/api/server.ts";
import { renderPlain } from "../../src/api/errors.ts";
import { storageRefusal } from "../../src/core/disk-guard.ts";
import { AppError } from "../../src/core/errors.ts";

test("every surface answers the storage refusal with 503, Retry-After and its own body", async () => {
  const bodies: Record<string, unknown> = {};
  for (const [surface, render] of Object.entries({ ...ERROR_RENDERERS, plain: renderPlain })) {
    const res = render(storageRefusal());
    expect([surface, res.status]).toEqual([surface, 503]);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    bodies[surface] = await res.json();
  }
  expect(bodies.sendgrid).toEqual({ errors: [{ message: expect.stringContaining("storage"), field: null, help: null }] });
  expect(bodies.mailgun).toEqual({ message: expect.stringContaining("storage") });
  expect(bodies.sparkpost).toEqual({ errors: [{ message: "Service unavailable", code: "1500", description: expect.stringContaining("storage") }] });
  expect(bodies.native).toEqual({ message: expect.stringContaining("storage"), status: 503 });
});

test("a stopping server's refusal is a 503 too, with a short Retry-After", () => {
  const res = ERROR_RENDERERS.sendgrid(new AppError("unavailable", "the server is shutting down", { reason: "stopping" }));
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe("5");
});
