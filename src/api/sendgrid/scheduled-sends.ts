// SendGrid's scheduled-send batches: POST /v3/mail/batch (a new batch id), GET /v3/mail/batch/{id}
// (is it valid), and /v3/user/scheduled_sends to pause or cancel a batch, read, change or lift
// that status. Mail sent with the batch_id honours it at delivery (core/send-batches.ts).
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { SendBatch } from "../../core/store-port.ts";
import { invalid } from "../../core/errors.ts";
import { json } from "../errors.ts";
import { principalOf } from "../context.ts";
import { permissions } from "../permission.ts";
import { readJsonBody } from "./body.ts";
import { isObject } from "./fields.ts";

type Deps = Pick<SurfaceDeps, "sendBatches">;

const READ = { right: "mail.read" } as const;
const SEND = { right: "mail.send" } as const;
const MAX_BODY_BYTES = 64 * 1024;

const invalidBatch = () => invalid("invalid batch id", "batch_id");
const wire = (b: SendBatch) => ({ batch_id: b.id, status: b.hold });

async function readBody(request: Request): Promise<Record<string, unknown>> {
  const body = await readJsonBody(request, MAX_BODY_BYTES);
  if (!isObject(body)) throw invalid("the request body must be a JSON object");
  return body;
}

export function scheduledSendRoutes(deps: Deps) {
  const batches = deps.sendBatches;
  return new Elysia({ name: "sendgrid-scheduled-sends" }).use(permissions)
    .post("/v3/mail/batch", async ({ request }) => json(201, { batch_id: (await batches.create(principalOf(request))).id }), { permission: SEND })
    .get("/v3/mail/batch/:id", async ({ params, request }) => {
      const b = await batches.find(principalOf(request), params.id);
      if (!b) throw invalidBatch();
      return json(200, { batch_id: b.id });
    }, { permission: READ })
    .post("/v3/user/scheduled_sends", async ({ request }) => {
      const body = await readBody(request);
      if (typeof body.batch_id !== "string" || !body.batch_id) throw invalidBatch();
      return json(201, wire(await batches.hold(principalOf(request), body.batch_id, String(body.status ?? ""))));
    }, { parse: "none", permission: SEND })
    .get("/v3/user/scheduled_sends", async ({ request }) => json(200, (await batches.held(principalOf(request))).map(wire)), { permission: READ })
    // One batch's status as SendGrid answers it: an array (empty when the batch has none).
    .get("/v3/user/scheduled_sends/:id", async ({ params, request }) => {
      const b = await batches.find(principalOf(request), params.id);
      return json(200, b?.hold ? [wire(b)] : []);
    }, { permission: READ })
    .patch("/v3/user/scheduled_sends/:id", async ({ params, request }) => {
      const p = principalOf(request);
      const body = await readBody(request);
      const b = await batches.find(p, params.id);
      if (!b?.hold) return json(404, { errors: [{ field: null, message: "batch id has no status" }] });
      await batches.hold(p, params.id, String(body.status ?? ""));
      return new Response(null, { status: 204 });
    }, { parse: "none", permission: SEND })
    .delete("/v3/user/scheduled_sends/:id", async ({ params, request }) => {
      await batches.release(principalOf(request), params.id);
      return new Response(null, { status: 204 });
    }, { permission: SEND });
}
