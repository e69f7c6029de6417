// A local webhook receiver on 127.0.0.1:0 that records requests and answers a chosen status.
export interface Received { headers: Headers; body: string; json: unknown }

export function startReceiver(initialStatus = 200) {
  const received: Received[] = [];
  let status = initialStatus;
  const server = Bun.serve({
    hostname: "127.0.0.1", port: 0,
    async fetch(req) {
      const body = await req.text();
      let json: unknown = null;
      try { json = JSON.parse(body); } catch { /* not JSON */ }
      received.push({ headers: req.headers, body, json });
      return new Response("ok", { status });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/hook`,
    received,
    setStatus(s: number) { status = s; },
    async waitFor(pred: (r: Received[]) => boolean, timeoutMs = 15_000) {
      const end = Date.now() + timeoutMs;
      while (!pred(received)) {
        if (Date.now() > end) throw new Error(`receiver: condition not met; got ${received.length} requests`);
        await Bun.sleep(25);
      }
      return received;
    },
    stop: () => server.stop(true),
  };
}
