// Address validation: /v4/address/validate (what mailgun.js's validate.get calls) and the older
// /v3/address/[private/]validate and /parse, GET or POST form. Account key only (policy.ts).
import { invalid } from "../../core/errors.ts";
import { parseAddressList } from "../../core/address/address.ts";
import type { SurfaceDeps } from "../deps.ts";
import { parseYesNo, readForm, routeGroup, type Form } from "./form.ts";
import { accountOnly } from "./policy.ts";
import { toParseResult, toV3Validation, toV4Validation } from "./validation-mapper.ts";

type Deps = Pick<SurfaceDeps, "validator">;

/** Mailgun's documented ceiling for the parse list. */
const MAX_PARSE_CHARS = 8000;

async function addressOf(request: Request): Promise<{ form: Form; address: string }> {
  const form = await readForm(request);
  const address = form.get("address")?.trim();
  if (!address) throw invalid("address parameter is missing", "address");
  return { form, address };
}

export function validationRoutes(deps: Deps) {
  const v4 = async ({ request }: { request: Request }) => {
    const { address } = await addressOf(request);
    return toV4Validation(address, await deps.validator.validate(address));
  };
  const v3 = async ({ request }: { request: Request }) => {
    const { form, address } = await addressOf(request);
    return toV3Validation(address, await deps.validator.validate(address), parseYesNo(form.get("mailbox_verification")) ?? false);
  };
  // Syntax only: Mailgun's syntax_only=false DNS check is not done here (docs/api/mailgun.md).
  const parse = async ({ request }: { request: Request }) => {
    // Repeated `addresses` values (mailgun.js and query strings send a list that way) are one list.
    const addresses = (await readForm(request)).getAll("addresses").filter((a) => a.trim()).join(", ");
    if (!addresses.trim()) throw invalid("addresses parameter is missing", "addresses");
    if (addresses.length > MAX_PARSE_CHARS) throw invalid(`addresses may be at most ${MAX_PARSE_CHARS} characters`, "addresses");
    return toParseResult(parseAddressList(addresses));
  };
  return routeGroup()
    .get("/v4/address/validate", v4, { permission: accountOnly("validation.use") }).post("/v4/address/validate", v4, { permission: accountOnly("validation.use") })
    .get("/v3/address/private/validate", v3, { permission: accountOnly("validation.use") }).post("/v3/address/private/validate", v3, { permission: accountOnly("validation.use") })
    .get("/v3/address/validate", v3, { permission: accountOnly("validation.use") }).post("/v3/address/validate", v3, { permission: accountOnly("validation.use") })
    .get("/v3/address/private/parse", parse, { permission: accountOnly("validation.use") }).post("/v3/address/private/parse", parse, { permission: accountOnly("validation.use") })
    .get("/v3/address/parse", parse, { permission: accountOnly("validation.use") }).post("/v3/address/parse", parse, { permission: accountOnly("validation.use") });
}
