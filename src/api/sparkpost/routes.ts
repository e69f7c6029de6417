// The Sparkpost surface's routes (contract §4). Handlers only translate: wire shape → core call →
// wire shape; every error goes through renderSparkpostError.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { SurfaceHandler } from "../server.ts";
import { renderSparkpostError } from "./errors.ts";

export function createSparkpostSurface(_deps: SurfaceDeps): SurfaceHandler {
  return new Elysia({ name: "sparkpost" })
    .onError(({ code, error }) => renderSparkpostError(error, code));
}
