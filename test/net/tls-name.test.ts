// The tracking host's certificate check against a real local TLS listener with a self-signed
// certificate (openssl): a certificate that does not verify is `false`, no listener is `null`.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:tls";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { probeTlsName } from "../../src/net/tls-name.ts";
import { freePort } from "../helpers/free-port.ts";

const dir = mkdtempSync(join(tmpdir(), "postern-tls-name-"));
let server: Server;
let port = 0;
beforeAll(async () => {
  const r = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1", "-subj", "/CN=localhost",
    "-keyout", join(dir, "k.pem"), "-out", join(dir, "c.pem")]);
  expect(r.exitCode).toBe(0);
  server = createServer({ key: readFileSync(join(dir, "k.pem")), cert: readFileSync(join(dir, "c.pem")) }, (s) => s.end());
  await new Promise<void>((res) => server.listen(0, "127.0.0.1", res));
  port = (server.address() as { port: number }).port;
});
afterAll(() => { server.close(); rmSync(dir, { recursive: true, force: true }); });

test("a self-signed certificate is not valid, nor one for another name; nothing listening is unknown", async () => {
  expect(await probeTlsName("127.0.0.1", "localhost", port, 2000)).toMatchObject({ valid: false, error: expect.stringMatching(/SELF_SIGNED|self.signed|IP/i) });
  expect(await probeTlsName("127.0.0.1", "email.example.test", port, 2000)).toMatchObject({ valid: false });
  expect(await probeTlsName("127.0.0.1", "localhost", await freePort(), 2000)).toMatchObject({ valid: null });
});
