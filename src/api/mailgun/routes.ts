// The Mailgun surface's routes (contract §4). Handlers only translate: wire shape → core call →
// wire shape; every error goes through renderMailgunError.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { SurfaceHandler } from "../server.ts";
import { renderMailgunError } from "./errors.ts";

export function createMailgunSurface(_deps: SurfaceDeps): SurfaceHandler {
  return new Elysia({ name: "mailgun" })
    .onError(({ code, error }) => renderMailgunError(error, code));
}
