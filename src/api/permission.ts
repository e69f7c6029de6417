// The permission guard every surface mounts its routes with: `.get(path, handler, { permission:
// { right: "suppressions.read", domain: "domain" } })`. The decision itself is core's `decide`,
// the same for all surfaces and the console; here it is only turned into each surface's refusal:
// 403 in the vendor's shape, except the native API and the console, which answer 404 for another domain so a
// domain key cannot probe which domains exist. test/api/permission.test.ts fails for any mounted
// route without a declaration.
import { Elysia } from "elysia";
import { decide, type Permission, type Refusal } from "../core/permissions.ts";
import { sparkpostGrantFor } from "./sparkpost/grants.ts";
import { grantRights } from "./grants.ts";
import { AppError, notFound } from "../core/errors.ts";
import { contextOf, principalOf } from "./context.ts";

export type { Permission } from "../core/permissions.ts";

/** Marks the guard function so tests (and docs) can read a route's declaration back. */
export const PERMISSION = Symbol.for("postern.permission");

/** A refusal by the permission model; surfaces may word it their vendor's way (SendGrid: "access forbidden"). */
export class PermissionDenied extends AppError {
  constructor(message: string, readonly refusal: Refusal) {
    super("forbidden", message);
  }
}

const KIND_MESSAGES: Record<string, string> = {
  mailgun: "domain sending keys may only send messages (POST /v3/<domain>/messages and messages.mime); use the account key",
};

function refuse(surface: string, refusal: Refusal): AppError {
  switch (refusal.reason) {
    case "kind":
      return new PermissionDenied(refusal.need === "account"
        ? KIND_MESSAGES[surface] ?? "this endpoint needs an account (primary) API key"
        : "this endpoint needs a domain (sending) API key", refusal);
    case "right": {
      // SparkPost users know its grant names; everyone else gets postern's right.
      const grant = surface === "sparkpost" ? sparkpostGrantFor(refusal.right) : undefined;
      return new PermissionDenied(grant ? `this API key lacks the grant ${grant}` : `this API key lacks the permission ${refusal.right}`, refusal);
    }
    case "domain":
      if (surface === "native" || surface === "console") return notFound(`Domain not found: ${refusal.domain}`);
      return new PermissionDenied(`this key may not act on domain ${refusal.domain}`, refusal);
    case "tenant":
      return new PermissionDenied("this key may not act on behalf of that tenant", refusal);
    case "suspended":
      return new PermissionDenied(`tenant ${refusal.tenant} is suspended: read-only, it cannot send or change anything`, refusal);
    case "terminated":
      return new PermissionDenied(`tenant ${refusal.tenant} is terminated`, refusal);
  }
}

function guardFor(permission: Permission) {
  const guard = ({ request, params }: { request: Request; params?: Record<string, string | undefined> }) => {
    const refusal = decide(principalOf(request), permission, params ?? {}, grantRights);
    if (refusal) throw refuse(contextOf(request).surface, refusal);
  };
  return Object.assign(guard, { [PERMISSION]: permission });
}

/** The plugin: `.use(permissions)` first, then declare `permission` on every route. */
export const permissions = new Elysia({ name: "postern-permissions" }).macro({
  permission: (permission: Permission) => ({ beforeHandle: guardFor(permission) }),
});

/** The declaration of a mounted route (from Elysia's `app.routes`), or undefined when it has none. */
export function declaredPermission(route: { hooks?: unknown }): Permission | undefined {
  const before = (route.hooks as { beforeHandle?: unknown })?.beforeHandle;
  const list = (Array.isArray(before) ? before : before ? [before] : []) as { fn?: unknown }[];
  for (const h of list) {
    const fn = (typeof h === "function" ? h : h?.fn) as { [PERMISSION]?: Permission } | undefined;
    if (fn?.[PERMISSION]) return fn[PERMISSION];
  }
  return undefined;
}
