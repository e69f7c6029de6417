// POST /v3/mail/send (the steps are mail-send.ts); SendGrid answers other methods with 405, not 404.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { principalOf } from "../context.ts";
import { json } from "../errors.ts";
import { permissions } from "../permission.ts";
import { createMailSend } from "./mail-send.ts";
import { ANY, SEND } from "./policy.ts";

type Deps = Pick<SurfaceDeps, "config" | "sender" | "templateService" | "now">;

export const methodNotAllowed = () => json(405, { errors: [{ message: "method not allowed", field: null, help: null }] });

export function mailRoutes(deps: Deps) {
  const mailSend = createMailSend({ sender: deps.sender, templates: deps.templateService, maxMessageBytes: deps.config.smtp.max_message_size, now: deps.now });
  return new Elysia({ name: "sendgrid-mail" }).use(permissions)
    // Bodies are read by us (parse: "none") to bound their size.
    .post("/v3/mail/send", ({ request }) => mailSend(principalOf(request), request), { parse: "none", permission: SEND })
    .get("/v3/mail/send", methodNotAllowed, { permission: ANY }).put("/v3/mail/send", methodNotAllowed, { permission: ANY })
    .delete("/v3/mail/send", methodNotAllowed, { permission: ANY }).patch("/v3/mail/send", methodNotAllowed, { permission: ANY });
}
