// POST /{domain}/suppress: one address onto the domain's unsubscribe, bounce or complaint list.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { permissions } from "../permission.ts";
import { readForm, textOf } from "./model.ts";
import { toSuppression } from "./mapper.ts";
import { visibleDomain } from "./policy.ts";

type Deps = Pick<SurfaceDeps, "domains" | "suppressions">;

export function suppressionRoutes(deps: Deps) {
  return new Elysia({ name: "native-suppressions" }).use(permissions)
    .post("/:domain/suppress", async ({ request, params }) => {
      const { domain } = await visibleDomain(request, deps.domains, params.domain);
      const fields = await readForm(request);
      const { type, list, entry } = toSuppression({ address: textOf(fields, "address"), error: textOf(fields, "error"), type: textOf(fields, "type") });
      await deps.suppressions.add(domain.name, list, [entry]);
      return { message: `Address has been added to the ${list} table`, address: entry.address, type };
    }, { parse: "none", permission: { right: "suppressions.manage", domain: "domain" } });
}
