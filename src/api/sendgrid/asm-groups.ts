// SendGrid's unsubscribe groups (ASM): /v3/asm/groups CRUD and each group's suppressions (add,
// list, search, delete), on core/unsubscribe-groups.ts. The send path honours a group's entries
// for mail sent with asm.group_id; a domain key sees its domain's groups and the account's.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { Principal } from "../../core/model.ts";
import type { UnsubscribeGroup } from "../../core/store-port.ts";
import { invalid } from "../../core/errors.ts";
import { json } from "../errors.ts";
import { principalOf } from "../context.ts";
import { permissions } from "../permission.ts";
import { readJsonBody } from "./body.ts";
import { isObject } from "./fields.ts";

type Deps = Pick<SurfaceDeps, "unsubscribeGroups">;

const READ = { right: "suppressions.read" } as const;
const MANAGE = { right: "suppressions.manage" } as const;
const MAX_BODY_BYTES = 1024 * 1024;

/** The group id of a path: not a number names no group (404 from the service). */
const idOf = (raw: string) => (/^\d{1,15}$/.test(raw) ? Number(raw) : -1);

/** {name?, description?, is_default?} with SendGrid's types; `isCreate` requires the name. */
async function readGroup(request: Request, isCreate: boolean) {
  const body = await readJsonBody(request, MAX_BODY_BYTES);
  if (!isObject(body)) throw invalid("the request body must be a JSON object");
  const { name, description, is_default } = body;
  if ((isCreate || name !== undefined) && typeof name !== "string") throw invalid("name is required and must be a string", "name");
  if (description !== undefined && typeof description !== "string") throw invalid("description must be a string", "description");
  if (is_default !== undefined && typeof is_default !== "boolean") throw invalid("is_default must be a boolean", "is_default");
  return { name: name as string | undefined, description: description as string | undefined, isDefault: is_default as boolean | undefined };
}

/** recipient_emails: a non-empty array of strings. */
async function readEmails(request: Request): Promise<string[]> {
  const body = await readJsonBody(request, MAX_BODY_BYTES);
  const emails = isObject(body) && Array.isArray(body.recipient_emails) ? body.recipient_emails : null;
  if (!emails || !emails.length || !emails.every((e) => typeof e === "string")) throw invalid("recipient_emails must be a non-empty array of email addresses", "recipient_emails");
  return emails as string[];
}

const wire = (g: UnsubscribeGroup) => ({ id: g.id, name: g.name, description: g.description, is_default: g.isDefault });

export function asmGroupRoutes(deps: Deps) {
  const groups = deps.unsubscribeGroups;
  const withCount = async (p: Principal, g: UnsubscribeGroup) =>
    ({ ...wire(g), last_email_sent_at: null, unsubscribes: (await groups.entries(p, g.id)).length });

  return new Elysia({ name: "sendgrid-asm-groups" }).use(permissions)
    .post("/v3/asm/groups", async ({ request }) => json(201, wire(await groups.create(principalOf(request), await readGroup(request, true)))),
      { parse: "none", permission: MANAGE })
    .get("/v3/asm/groups", async ({ request }) => {
      const p = principalOf(request);
      const wanted = new URL(request.url).searchParams.getAll("id").map(Number);
      const list = (await groups.list(p)).filter((g) => !wanted.length || wanted.includes(g.id));
      return json(200, await Promise.all(list.map((g) => withCount(p, g))));
    }, { permission: READ })
    .get("/v3/asm/groups/:id", async ({ params, request }) => {
      const p = principalOf(request);
      return json(200, await withCount(p, await groups.get(p, idOf(params.id))));
    }, { permission: READ })
    // SendGrid answers a group update with 201 and the group.
    .patch("/v3/asm/groups/:id", async ({ params, request }) => json(201, wire(await groups.update(principalOf(request), idOf(params.id), await readGroup(request, false)))),
      { parse: "none", permission: MANAGE })
    .delete("/v3/asm/groups/:id", async ({ params, request }) => {
      await groups.remove(principalOf(request), idOf(params.id));
      return new Response(null, { status: 204 });
    }, { permission: MANAGE })
    .post("/v3/asm/groups/:id/suppressions", async ({ params, request }) =>
      json(201, { recipient_emails: await groups.addEntries(principalOf(request), idOf(params.id), await readEmails(request)) }), { parse: "none", permission: MANAGE })
    .get("/v3/asm/groups/:id/suppressions", async ({ params, request }) =>
      json(200, (await groups.entries(principalOf(request), idOf(params.id))).map((e) => e.address)), { permission: READ })
    .post("/v3/asm/groups/:id/suppressions/search", async ({ params, request }) => {
      const emails = await readEmails(request);
      const found = await groups.entries(principalOf(request), idOf(params.id), emails);
      // Answered in the caller's spelling, as SendGrid echoes the addresses it was asked about.
      return json(200, emails.filter((e) => found.some((f) => f.address === e.trim().toLowerCase())));
    }, { parse: "none", permission: READ })
    .delete("/v3/asm/groups/:id/suppressions/:email", async ({ params, request }) => {
      await groups.removeEntry(principalOf(request), idOf(params.id), params.email);
      return new Response(null, { status: 204 });
    }, { permission: MANAGE });
}
