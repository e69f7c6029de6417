// GET /test: which key this is (account or domain, its id and grants), to check a connection.
import { Elysia } from "elysia";
import { principalOf } from "../context.ts";
import { permissions } from "../permission.ts";
import { toAuth } from "./mapper.ts";

export function keyRoutes() {
  return new Elysia({ name: "native-key" }).use(permissions)
    .get("/test", ({ request }) => toAuth(principalOf(request)), { permission: { right: "any" } });
}
