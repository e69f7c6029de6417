// Console: the HTTPS/STARTTLS certificate's state, as /healthz reports it ({"state": "off"} without
// [tls]), shown on the Queue page beside the other "is the server well" facts.
import { Elysia } from "elysia";
import type { ConsoleDeps } from "./deps.ts";
import { permissions } from "../permission.ts";

export function tlsRoutes(deps: ConsoleDeps) {
  return new Elysia({ prefix: "/ui/api" }).use(permissions)
    .get("/tls", () => deps.tlsHealth?.() ?? { state: "off" }, { permission: { right: "account.read" } });
}
