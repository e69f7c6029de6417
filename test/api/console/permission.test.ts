// Every console API route declares its permission in the one model (core/permissions.ts), as the
// API surfaces' routes do: a route without a declaration fails here.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { createConsoleSurface } from "../../../src/api/console/routes.ts";
import type { ConsoleDeps } from "../../../src/api/console/deps.ts";
import { declaredPermission } from "../../../src/api/permission.ts";
import { createSessionService } from "../../../src/core/sessions.ts";
import { createQueueAdmin } from "../../../src/mta/queue/admin.ts";

let t: TestApp;
beforeAll(async () => { t = await makeTestApp(); });
afterAll(async () => { await t.close(); });

test("every console API route declares a permission", () => {
  const { app } = t;
  // Mounting reads only the config: the services are used when a request comes.
  const surface = createConsoleSurface({
    config: app.config, access: app.access, domains: app.domains, now: app.now,
    sessions: createSessionService({ control: app.store.control, access: app.access, now: app.now }),
    queue: createQueueAdmin({ store: app.store, recorder: app.recorder, now: app.now }),
  } as unknown as ConsoleDeps);
  const routes = surface.routes.filter((r) => r.method !== "ALL");
  expect(routes.length).toBeGreaterThan(15);
  expect(routes.filter((r) => !declaredPermission(r)).map((r) => `${r.method} ${r.path}`)).toEqual([]);
});
