// /api/v1/templates: stored templates with a draft and a published version, and /preview with
// substitution data (rendered with SparkPost's substitution language). A domain key's templates
// belong to its domain; an account key's to the account of the tenant it acts for (X-MSYS-SUBACCOUNT;
// without it, GETs read the primary's and every subaccount's). Grants: templates/view, /modify, /preview.
import { Elysia } from "elysia";
import type { Principal } from "../../core/model.ts";
import type { StoredTemplate, TemplateVersion } from "../../core/template-model.ts";
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { AppError } from "../../core/errors.ts";
import { need } from "./policy.ts";
import { principalOf } from "../context.ts";
import { permissions } from "../permission.ts";
import { readQuery } from "./query.ts";
import { badFormat, notFoundError, spError } from "./errors.ts";
import { DRAFT, PUBLISHED, contentOf, draftOf, idFromName, publishedOf, readTemplateInput, toSpSummary, toSpTemplate, type SpContent } from "./template-wire.ts";
import { renderPreview } from "./template-render.ts";
import { isObject } from "../wire.ts";

type Deps = Pick<SurfaceDeps, "templateService">;
const READ = need("templates.read");
const MANAGE = need("templates.manage");

export function templateRoutes(deps: Deps) {
  const svc = deps.templateService;
  const load = async (p: Principal, id: string, access: "read" | "write" = "read") => {
    const t = await svc.find(p, id, access).catch((e) => {
      if (e instanceof AppError && e.code === "forbidden") throw spError(403, "1002", "Forbidden.", e.message);
      throw e;
    });
    if (!t) throw notFoundError(`template '${id}' does not exist`);
    return t;
  };
  /** ?draft=true → the draft; false → the published version; absent → the newest of the two. */
  const pick = (t: StoredTemplate, draft: boolean | undefined): TemplateVersion => {
    const d = draftOf(t), p = publishedOf(t);
    const v = draft === true ? d : draft === false ? p : [d, p].filter(Boolean).sort((a, b) => b!.updatedAt - a!.updatedAt)[0];
    if (!v) throw notFoundError(`template '${t.id}' has no ${draft ? "draft" : "published"} version`);
    return v;
  };
  const write = (t: StoredTemplate, id: string, c: SpContent, active: boolean, base?: TemplateVersion) =>
    svc.putVersion(t, { id, name: id, active, subject: c.subject ?? base?.subject, html: c.html ?? base?.html, text: c.text ?? base?.text,
      extra: { ...(base?.extra ?? {}), ...c.extra } });

  return (app: Elysia) => app.use(permissions)
    .post("/templates", async ({ request, body }) => {
      const p = principalOf(request);
      const input = readTemplateInput(body, true);
      const t = await svc.create({ id: input.id ?? idFromName(input.name!), ...svc.ownerOf(p), name: input.name ?? input.id!,
        description: input.description ?? "", generation: "dynamic", extra: input.options ? { options: input.options } : {} })
        .catch((e) => { throw e instanceof AppError && e.code === "conflict" ? spError(409, "1602", "resource conflict", e.message) : e; });
      await write(t, input.published ? PUBLISHED : DRAFT, input.content!, Boolean(input.published));
      return json(200, { results: { id: t.id } });
    }, { permission: MANAGE })
    .get("/templates", async ({ request }) => {
      const p = principalOf(request);
      return json(200, { results: (await svc.list(p)).map(toSpSummary) });
    }, { permission: READ })
    .get("/templates/:id", async ({ request, params }) => {
      const p = principalOf(request);
      const t = await load(p, params.id);
      return json(200, { results: toSpTemplate(t, pick(t, readQuery(request).bool("draft"))) });
    }, { permission: READ })
    .put("/templates/:id", async ({ request, params, body }) => {
      const p = principalOf(request);
      const t = await load(p, params.id, "write");
      const input = readTemplateInput(body, false);
      await update(t, input, readQuery(request).bool("update_published") === true);
      return json(200, { results: { id: t.id } });
    }, { permission: MANAGE })
    .delete("/templates/:id", async ({ request, params }) => {
      const p = principalOf(request);
      await svc.remove(await load(p, params.id, "write"));
      return new Response(null, { status: 204 });
    }, { permission: MANAGE })
    .post("/templates/:id/preview", async ({ request, params, body }) => {
      const p = principalOf(request);
      const t = await load(p, params.id);
      const b = isObject(body) ? body : {};
      const draft = readQuery(request).bool("draft") ?? (typeof b.draft === "boolean" ? b.draft : undefined);
      const data = b.substitution_data ?? {};
      if (!isObject(data)) throw badFormat("substitution_data must be an object");
      const v = pick(t, draft);
      return json(200, { results: renderPreview(t, v, contentOf(v), data) });
    }, { permission: READ });

  /** PUT: published:true publishes (the draft, with this body's changes); update_published edits the live version. */
  async function update(t: StoredTemplate, input: ReturnType<typeof readTemplateInput>, updatePublished: boolean) {
    if (input.name !== undefined || input.description !== undefined || input.options !== undefined) {
      t = await svc.update(t, { name: input.name, description: input.description, ...(input.options ? { extra: { ...t.extra, options: input.options } } : {}) });
    }
    const content = input.content ?? { extra: {} };
    const draft = draftOf(t), published = publishedOf(t);
    if (input.published === true) {
      await write(t, PUBLISHED, content, true, draft ?? published);
      if (draft) await svc.removeVersion(t, DRAFT);
    } else if (updatePublished) {
      if (!published) throw spError(422, "1300", "invalid data format/type", `template '${t.id}' has no published version`);
      await write(t, published.id, content, true, published);
    } else if (input.content) {
      await write(t, DRAFT, content, false, draft ?? published);
    }
  }
}
