// A loopback TCP port nobody listens on right now, for servers the tests start as other processes
// (PostgreSQL, spamd, `postern serve`), which cannot be asked for port 0 and report back.
export async function freePort(): Promise<number> {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}
