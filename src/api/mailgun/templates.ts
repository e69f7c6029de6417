// /v3/{domain}/templates and their versions: the domain's stored templates (Handlebars), named,
// with tagged versions and one active. Account key only, as every Mailgun endpoint but sending.
import type { Domain } from "../../core/model.ts";
import type { StoredTemplate } from "../../core/template-model.ts";
import { invalid, notFound } from "../../core/errors.ts";
import type { SurfaceDeps } from "../deps.ts";
import { parseYesNo, readForm, routeGroup, type Form } from "./form.ts";
import { accountOnly } from "./policy.ts";
import { fullVersion, sharedHeaders, pageOf, pagingOf, readBody, readHeaders, readTag, shortVersion, templateHead, toMgTemplate } from "./template-wire.ts";
import { baseUrlOf } from "./suppression-pages.ts";

type Deps = Pick<SurfaceDeps, "templateService" | "domains">;
const NAME_RE = /^[a-z0-9_.-]{1,255}$/;
const MAX_VERSIONS = 40;
const READ = { permission: accountOnly("templates.read") };
const MANAGE = { permission: accountOnly("templates.manage") };

const limitOf = (form: Form) => {
  const n = Number(form.get("limit") ?? 10);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw invalid("limit must be an integer from 1 to 1000", "limit");
  return n;
};

function helpers(deps: Deps) {
  const svc = deps.templateService;
  return {
    svc,
    scope: async (_request: Request, name: string): Promise<Domain> => deps.domains.require(name),
    async load(d: Domain, name: string): Promise<StoredTemplate> {
      const t = await svc.findIn(d.id, name.toLowerCase());
      if (!t) throw notFound("template not found");
      return t;
    },
    versionOf(t: StoredTemplate, tag: string) {
      const v = t.versions.find((x) => x.id === tag.toLowerCase());
      if (!v) throw notFound("template version not found");
      return v;
    },
    versionFields(form: Form, body: string | undefined) {
      const headers = readHeaders(form);
      return { html: body, subject: headers?.Subject, extra: { ...(headers ? sharedHeaders(headers) : {}), ...(form.get("comment") !== undefined ? { comment: form.get("comment") } : {}) } };
    },
  };
}

export function templateRoutes(deps: Deps) {
  const { svc, scope, load, versionFields } = helpers(deps);
  return routeGroup()
    .get("/v3/:domain/templates", async ({ params, request }) => {
      const d = await scope(request, params.domain);
      const form = await readForm(request);
      const limit = limitOf(form);
      const items = pageOf((await svc.listIn(d.id)).map(templateHead), form.get("page"), form.get("p"), limit);
      return { items, paging: pagingOf(baseUrlOf(request), items, limit) };
    }, READ)
    .post("/v3/:domain/templates", async ({ params, request }) => {
      const d = await scope(request, params.domain);
      const form = await readForm(request);
      const name = (form.get("name") ?? "").trim().toLowerCase();
      if (!NAME_RE.test(name)) throw invalid(name ? "name is invalid: letters, digits, '_', '-' and '.'" : "name parameter is missing", "name");
      const body = readBody(form, false);
      const t = await svc.create({ id: name, domainId: d.id, tenantId: d.tenantId ?? 0, name, description: form.get("description") ?? "", generation: "dynamic",
        extra: form.get("createdBy") ? { createdBy: form.get("createdBy") } : {} });
      if (body !== undefined) await svc.putVersion(t, { id: readTag(form.get("tag"), "initial"), name: "", active: true, ...versionFields(form, body) });
      return { message: "template has been stored", template: toMgTemplate(await load(d, name), true) };
    }, MANAGE)
    .get("/v3/:domain/templates/:name", async ({ params, request }) => {
      const d = await scope(request, params.domain);
      const active = parseYesNo((await readForm(request)).get("active")) === true;
      return { template: toMgTemplate(await load(d, params.name), active) };
    }, READ)
    .put("/v3/:domain/templates/:name", async ({ params, request }) => {
      const d = await scope(request, params.domain);
      const t = await load(d, params.name);
      const description = (await readForm(request)).get("description");
      if (description === undefined) throw invalid("description parameter is missing", "description");
      await svc.update(t, { description });
      return { message: "template has been updated", template: { name: t.name } };
    }, MANAGE)
    .delete("/v3/:domain/templates/:name", async ({ params, request }) => {
      const t = await load(await scope(request, params.domain), params.name);
      await svc.remove(t);
      return { message: "template has been deleted", template: { name: t.name } };
    }, MANAGE)
    .delete("/v3/:domain/templates", async ({ params, request }) => {
      const d = await scope(request, params.domain);
      for (const t of await svc.listIn(d.id)) await svc.remove(t);
      return { message: "templates have been deleted" };
    }, MANAGE);
}

/** /v3/{domain}/templates/{name}/versions…: tagged versions, one active. */
export function templateVersionRoutes(deps: Deps) {
  const { svc, scope, load, versionOf, versionFields } = helpers(deps);
  return routeGroup()
    .get("/v3/:domain/templates/:name/versions", async ({ params, request }) => {
      const d = await scope(request, params.domain);
      const form = await readForm(request);
      const t = await load(d, params.name);
      const limit = limitOf(form);
      const versions = pageOf(t.versions.map((v) => ({ ...shortVersion(v), name: v.id })), form.get("page"), form.get("p"), limit);
      return { template: { ...templateHead(t), versions: versions.map(({ name: _n, ...v }) => v) }, paging: pagingOf(baseUrlOf(request), versions, limit) };
    }, READ)
    .post("/v3/:domain/templates/:name/versions", async ({ params, request }) => {
      const d = await scope(request, params.domain);
      const t = await load(d, params.name);
      const form = await readForm(request);
      const tag = readTag(form.get("tag"));
      if (t.versions.some((v) => v.id === tag)) throw invalid(`version with tag ${tag} already exists`, "tag");
      if (t.versions.length >= MAX_VERSIONS) throw invalid(`a template holds at most ${MAX_VERSIONS} versions`, "tag");
      const active = parseYesNo(form.get("active")) === true || t.versions.length === 0;
      await svc.putVersion(t, { id: tag, name: "", active, ...versionFields(form, readBody(form, true)) });
      const after = await load(d, t.id);
      return { message: "new version of the template has been stored", template: { ...templateHead(after), version: fullVersion(versionOf(after, tag)) } };
    }, MANAGE)
    .get("/v3/:domain/templates/:name/versions/:tag", async ({ params, request }) => {
      const t = await load(await scope(request, params.domain), params.name);
      return { template: { ...templateHead(t), version: fullVersion(versionOf(t, params.tag)) } };
    }, READ)
    .put("/v3/:domain/templates/:name/versions/:tag", async ({ params, request }) => {
      const t = await load(await scope(request, params.domain), params.name);
      const v = versionOf(t, params.tag);
      const form = await readForm(request);
      const fields = versionFields(form, readBody(form, false));
      const active = parseYesNo(form.get("active"));
      await svc.putVersion(t, { ...v, html: fields.html ?? v.html, subject: fields.subject ?? v.subject, active: active ?? v.active, extra: { ...v.extra, ...fields.extra } });
      return { message: "version has been updated", template: { name: t.name, version: { tag: v.id } } };
    }, MANAGE)
    .delete("/v3/:domain/templates/:name/versions/:tag", async ({ params, request }) => {
      const t = await load(await scope(request, params.domain), params.name);
      const v = versionOf(t, params.tag);
      await svc.removeVersion(t, v.id);
      return { message: "version has been deleted", template: { name: t.name, version: { tag: v.id } } };
    }, MANAGE);
}
