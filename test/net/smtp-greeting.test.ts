// The port-25 probe against real local listeners: a (multi-line) greeting, a closed port, and one
// that accepts and never speaks.
import { afterAll, expect, test } from "bun:test";
import { createServer, type Server } from "node:net";
import { probeGreeting } from "../../src/net/smtp-greeting.ts";
import { freePort } from "../helpers/free-port.ts";

const servers: Server[] = [];
afterAll(() => { for (const s of servers) s.close(); });
async function listen(onConn: (s: import("node:net").Socket) => void): Promise<number> {
  const srv = createServer(onConn);
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  servers.push(srv);
  return (srv.address() as { port: number }).port;
}
const clock = () => performance.now();

test("a multi-line greeting is read to its last line; the probe says QUIT", async () => {
  let said = "";
  const port = await listen((s) => { s.write("220-mx.example ESMTP\r\n"); setTimeout(() => s.write("220 ready\r\n"), 20); s.on("data", (d) => { said += d; }); });
  expect(await probeGreeting("127.0.0.1", port, 2000, clock)).toMatchObject({ kind: "greeted", code: 220, line: "220 ready" });
  await Bun.sleep(50);
  expect(said).toBe("QUIT\r\n");
});

test("a closed port is refused; a listener that never greets is silent at the greeting", async () => {
  expect(await probeGreeting("127.0.0.1", await freePort(), 2000, clock)).toMatchObject({ kind: "refused", error: "ECONNREFUSED" });
  const silent = await listen(() => {});
  expect(await probeGreeting("127.0.0.1", silent, 300, clock)).toMatchObject({ kind: "silent", stage: "greeting" });
});

test("a server that never ends its greeting still answered: greeted, after its first 4 KB", async () => {
  const port = await listen((s) => { s.write("220-mx.example\r\n".repeat(200_000)); });
  expect(await probeGreeting("127.0.0.1", port, 1500, clock)).toMatchObject({ kind: "greeted", code: 220, line: "220-mx.example" });
});
