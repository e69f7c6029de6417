// Sending: POST /v3/{domain}/messages (built from parts) and /messages.mime (a complete MIME
// message). Both accept the account key and the domain's own sending key.
import type { SurfaceDeps } from "../deps.ts";
import { mailgunTemplates } from "./template-source.ts";
import { principalOf } from "../context.ts";
import { readForm, routeGroup } from "./form.ts";
import { SEND } from "./policy.ts";
import { toMessageResponse, toSendRequest } from "./mapper.ts";
import { mimeToSendRequest } from "./mime.ts";
import { expandLists, fillListLinks } from "./list-send.ts";

export function messageRoutes(deps: Pick<SurfaceDeps, "sender" | "now" | "templateService" | "domains" | "lists" | "codec" | "config">) {
  return routeGroup()
    .post("/v3/:domain/messages", async ({ params, request }) => {
      const principal = principalOf(request);
      let form = await readForm(request);
      const domain = await deps.domains.get(params.domain.toLowerCase());
      const lists = domain ? await expandLists(form, principal, domain.id, deps) : null;
      if (lists) form = lists.form;
      const req = await toSendRequest(params.domain, form, deps.now(), mailgunTemplates(request, params.domain, deps));
      return toMessageResponse(await deps.sender.send(principal, lists ? fillListLinks(req, lists.links) : req));
    }, { permission: SEND })
    .post("/v3/:domain/messages.mime", async ({ params, request }) => {
      const principal = principalOf(request);
      const req = await mimeToSendRequest(params.domain, await readForm(request), deps.now());
      return toMessageResponse(await deps.sender.send(principal, req));
    }, { permission: SEND });
}
