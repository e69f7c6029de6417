// The Native surface's routes (contract §4). Handlers only translate: wire shape → core call →
// wire shape; every error goes through renderNativeError.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { SurfaceHandler } from "../server.ts";
import { renderNativeError } from "./errors.ts";

export function createNativeSurface(_deps: SurfaceDeps): SurfaceHandler {
  return new Elysia({ name: "native" })
    .onError(({ code, error }) => renderNativeError(error, code));
}
