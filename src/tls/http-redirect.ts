// The `[tls] http_listen` socket (port 80): answers ACME HTTP-01 challenges and sends every
// other request with a 308 to the same path and query at public_url's origin over https.
import { answerChallenge, type ChallengeAnswers } from "./challenges.ts";

export function createHttpRedirect(opts: { host: string; port: number; publicUrl: string; challenges: ChallengeAnswers }) {
  const target = new URL(opts.publicUrl);
  // public_url may still say http:// (the installation before TLS): the redirect is to https anyway.
  const origin = `https://${target.host}`;
  let server: Bun.Server<undefined> | null = null;
  const handle = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    return (await answerChallenge(opts.challenges, url.pathname))
      ?? new Response(null, { status: 308, headers: { location: `${origin}${url.pathname}${url.search}` } });
  };
  return {
    handle,
    start(): string {
      server = Bun.serve({ hostname: opts.host, port: opts.port, fetch: handle });
      return `${server.hostname}:${server.port}`;
    },
    async stop() { if (server) await server.stop(true); server = null; },
  };
}
