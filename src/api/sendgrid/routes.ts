// The Sendgrid surface's routes (contract §4). Handlers only translate: wire shape → core call →
// wire shape; every error goes through renderSendgridError.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { SurfaceHandler } from "../server.ts";
import { renderSendgridError } from "./errors.ts";

export function createSendgridSurface(_deps: SurfaceDeps): SurfaceHandler {
  return new Elysia({ name: "sendgrid" })
    .onError(({ code, error }) => renderSendgridError(error, code));
}
