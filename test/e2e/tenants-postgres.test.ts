// Tenants end to end on the PostgreSQL engine (a real cluster started here; the suite: tenants-suite.ts).
import { describe, setDefaultTimeout } from "bun:test";
import { tenantSuite } from "./tenants-suite.ts";
import { pgSkipReason, sharedPostgres } from "../helpers/postgres.ts";

setDefaultTimeout(30_000);
describe.skipIf(pgSkipReason !== null)("PostgreSQL", () => {
  tenantSuite("postgres", async () => {
    const pg = await sharedPostgres();
    return { toml: `engine = "postgres"\npostgres_url = "${await pg.createDatabase("tenants")}"\n`, stop: () => pg.stop() };
  });
});
