// A local webhook target on 127.0.0.1:0 that holds every request open (answers nothing) until
// told to answer; records what arrived. For "one dead target beside a healthy one" tests.
import type { Received } from "./receiver.ts";

export function startHungTarget() {
  const received: Received[] = [];
  const held: ((r: Response) => void)[] = [];
  let hanging = true;
  const server = Bun.serve({
    hostname: "127.0.0.1", port: 0, idleTimeout: 0,
    async fetch(req) {
      const body = await req.text();
      let json: unknown = null;
      try { json = JSON.parse(body); } catch { /* not JSON */ }
      received.push({ headers: req.headers, body, json });
      if (!hanging) return new Response("ok");
      return new Promise<Response>((resolve) => held.push(resolve));
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/hook`,
    received,
    /** From now on answer 200 at once; requests still held get 503. */
    recover() { hanging = false; for (const r of held.splice(0)) r(new Response("late", { status: 503 })); },
    stop() { for (const r of held.splice(0)) r(new Response("bye", { status: 503 })); server.stop(true); },
  };
}
