// The first start of `serve` under a service manager (stdout is a pipe, which the journal reads):
// the primary key never reaches stdout or stderr; it is in <data_dir>/primary-key, mode 0600, and
// works.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-first-key-"));
let server: ReturnType<typeof Bun.spawn> | null = null;
afterAll(() => { server?.kill(); rmSync(dir, { recursive: true, force: true }); });

test("serve without a terminal writes the first key to a 0600 file and prints only where it is", async () => {
  const file = join(dir, "postern.toml");
  writeFileSync(file, `[server]\nlisten = "127.0.0.1:0"\n[smtp]\nlisten = "127.0.0.1:0"\n[storage]\ndata_dir = "${join(dir, "data")}"\n`);
  server = Bun.spawn(["bun", MAIN, "--config", file, "serve"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  const reader = (server.stdout as ReadableStream<Uint8Array>).getReader();
  let out = "";
  while (!/http (\S+?),/.test(out)) out += new TextDecoder().decode((await reader.read()).value);
  const keyFile = join(dir, "data", "primary-key");
  expect(out).toContain(keyFile);
  expect(out).not.toMatch(/pk\.[0-9a-z]{12}\./);
  expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  const key = readFileSync(keyFile, "utf8").trim();
  expect(key).toMatch(/^pk\.[0-9a-z]{12}\.[0-9a-z]{32,}$/);
  const base = `http://${/http (\S+?),/.exec(out)![1]}`;
  expect((await fetch(`${base}/test`, { headers: { "ov-token": key } })).status).toBe(200);
  server.kill();
  await server.exited;
  expect(await new Response(server.stderr as ReadableStream).text()).not.toContain(key);
}, 30_000);
