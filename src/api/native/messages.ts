// POST /{domain}/messages: a Mailgun-shaped form (or JSON) sent through the core send pipeline.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { permissions } from "../permission.ts";
import { readForm } from "./model.ts";
import { visibleDomain } from "./policy.ts";
import { readAttachments, readMessageForm } from "./message-form.ts";
import { toSendRequest } from "./message-request.ts";

type Deps = Pick<SurfaceDeps, "domains" | "sender" | "templateService">;

export function messageRoutes(deps: Deps) {
  return new Elysia({ name: "native-messages" }).use(permissions)
    .post("/:domain/messages", async ({ request, params }) => {
      const { principal, domain } = await visibleDomain(request, deps.domains, params.domain);
      const fields = await readForm(request);
      const form = readMessageForm(fields, domain.name);
      const req = await toSendRequest(form, domain.name, await readAttachments(fields), deps.templateService.forDomain(domain, "equal"));
      const result = await deps.sender.send(principal, req);
      return { id: result.messages[0]!.messageIdHeader, message: "Queued. Thank you." };
    }, { parse: "none", permission: { right: "mail.send", domain: "domain" } });
}
