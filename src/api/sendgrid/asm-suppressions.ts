// SendGrid's suppressions across unsubscribe groups: GET /v3/asm/suppressions (every group entry)
// and GET /v3/asm/suppressions/{email} (every group, with whether the address left it).
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { principalOf } from "../context.ts";
import { permissions } from "../permission.ts";

type Deps = Pick<SurfaceDeps, "unsubscribeGroups">;

const READ = { right: "suppressions.read" } as const;
const secs = (ms: number) => Math.floor(ms / 1000);

export function asmSuppressionRoutes(deps: Deps) {
  const groups = deps.unsubscribeGroups;
  return new Elysia({ name: "sendgrid-asm-suppressions" }).use(permissions)
    .get("/v3/asm/suppressions", async ({ request }) => {
      const p = principalOf(request);
      const out: { email: string; group_id: number; group_name: string; created_at: number }[] = [];
      for (const g of await groups.list(p)) {
        for (const e of await groups.entries(p, g.id)) out.push({ email: e.address, group_id: g.id, group_name: g.name, created_at: secs(e.createdAt) });
      }
      return json(200, out);
    }, { permission: READ })
    .get("/v3/asm/suppressions/:email", async ({ params, request }) => {
      const p = principalOf(request);
      const suppressions = [];
      for (const g of await groups.list(p)) {
        const suppressed = (await groups.entries(p, g.id, [params.email])).length > 0;
        suppressions.push({ id: g.id, name: g.name, description: g.description, is_default: g.isDefault, suppressed });
      }
      return json(200, { suppressions });
    }, { permission: READ });
}
