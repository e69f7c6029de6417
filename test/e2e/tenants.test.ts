// Tenants end to end on the SQLite engine (the suite: tenants-suite.ts).
import { setDefaultTimeout } from "bun:test";
import { tenantSuite } from "./tenants-suite.ts";

setDefaultTimeout(30_000);
tenantSuite("sqlite", async () => ({ toml: "", stop: async () => {} }));
