// Regenerates config/postern.example.toml from src/config/schema.ts (test/config/schema.test.ts checks it).
import { renderConfigTemplate } from "../src/config/schema.ts";
await Bun.write(new URL("../config/postern.example.toml", import.meta.url), renderConfigTemplate());
console.log("wrote config/postern.example.toml");
