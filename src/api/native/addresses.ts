// GET /address/parse: an address list split and checked (RFC 5322 with RFC 5321 limits).
import { Elysia } from "elysia";
import { invalid } from "../../core/errors.ts";
import { parseAddressList } from "../../core/address/address.ts";
import { permissions } from "../permission.ts";
import { MAX_PARSE_CHARS, queryText, required } from "./model.ts";
import { toParsed } from "./mapper.ts";

export function addressRoutes() {
  return new Elysia({ name: "native-addresses" }).use(permissions)
    .get("/address/parse", ({ query }) => {
      const addresses = required(queryText(query, "addresses"), "addresses");
      if (addresses.length > MAX_PARSE_CHARS) throw invalid(`addresses is limited to ${MAX_PARSE_CHARS} characters`, "addresses");
      return toParsed(parseAddressList(addresses));
    }, { permission: { right: "any" } });
}
