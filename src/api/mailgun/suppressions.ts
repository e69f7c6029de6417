// Bounces, unsubscribes, complaints and whitelists under /v3/{domain}/{type}: list with limit and
// page links, get, create (form or JSON array), import (CSV), delete one, delete all. The send
// service honours the lists; this only edits them. Account key only (policy.ts).
import { notFound } from "../../core/errors.ts";
import { SUPPRESSION_TYPES } from "../../core/suppressions.ts";
import type { SurfaceDeps } from "../deps.ts";
import { readForm, routeGroup } from "./form.ts";
import { accountOnly } from "./policy.ts";
import { csvInputs, inputsOf } from "./suppression-input.ts";
import { toSuppressionItem } from "./suppression-mapper.ts";
import { baseUrlOf, createSuppressionPager, limitOf, pageLinks, pivotOf } from "./suppression-pages.ts";
import { SUPPRESSION_TABLES } from "./model.ts";

type Deps = Pick<SurfaceDeps, "suppressions">;

export function suppressionRoutes(deps: Deps) {
  const readPage = createSuppressionPager(deps.suppressions);
  const group = routeGroup();
  for (const type of SUPPRESSION_TYPES) {
    const table = SUPPRESSION_TABLES[type];
    const keyOf = (address: string) => (type === "whitelists" ? { value: address } : { address });
    group
      .get(`/v3/:domain/${type}`, async ({ params, request }) => {
        const form = await readForm(request);
        const limit = limitOf(form);
        const items = await readPage(params.domain, type, form, limit);
        return { items: items.map((s) => toSuppressionItem(type, s)), paging: pageLinks(baseUrlOf(request), limit, items, pivotOf(form)) };
      }, { permission: accountOnly("suppressions.read") })
      .get(`/v3/:domain/${type}/:address`, async ({ params, request }) => {
        const found = await deps.suppressions.get(params.domain, type, params.address);
        if (!found) throw notFound(table.notFound);
        return toSuppressionItem(type, found);
      }, { permission: accountOnly("suppressions.read") })
      .post(`/v3/:domain/${type}`, async ({ params, request }) => {
        const { entries, isBulk } = inputsOf(type, await readForm(request));
        const n = await deps.suppressions.add(params.domain, type, entries);
        if (isBulk && entries.length !== 1) return { message: `${n} addresses have been added to the ${table.added} table` };
        const what = type === "whitelists" ? "Address/Domain" : "Address";
        return { message: `${what} has been added to the ${table.added} table`, ...(type === "whitelists" && { type: "address" }), ...keyOf(entries[0]!.address) };
      }, { permission: accountOnly("suppressions.manage") })
      .post(`/v3/:domain/${type}/import`, async ({ params, request }) => {
        const file = (await readForm(request)).values("file")[0];
        const csv = typeof file === "string" ? file : file ? await file.text() : "";
        await deps.suppressions.add(params.domain, type, csvInputs(type, csv));
        return { message: "file uploaded successfully" };
      }, { permission: accountOnly("suppressions.manage") })
      .delete(`/v3/:domain/${type}/:address`, async ({ params, request }) => {
        if (!(await deps.suppressions.remove(params.domain, type, params.address))) throw notFound(table.notFound);
        return { message: table.removed, ...keyOf(params.address.toLowerCase()) };
      }, { permission: accountOnly("suppressions.manage") })
      .delete(`/v3/:domain/${type}`, async ({ params, request }) => {
        await deps.suppressions.clear(params.domain, type);
        return { message: table.removedAll };
      }, { permission: accountOnly("suppressions.manage") });
  }
  return group;
}
