// HTTP-01 answers while an order is open: token -> key authorization, served on `http_listen`
// under /.well-known/acme-challenge/<token> (RFC 8555 §8.3). Nodes sharing PostgreSQL also keep
// them in the control database: the CA's request may reach any node behind the name.
import type { TlsStateStore } from "../core/store-port.ts";

export const CHALLENGE_PREFIX = "/.well-known/acme-challenge/";

export interface ChallengeAnswers {
  set(token: string, keyAuthorization: string): Promise<void>;
  delete(token: string): Promise<void>;
  get(token: string): Promise<string | null>;
}

export function createChallengeAnswers(shared?: { state: TlsStateStore; now: () => number }): ChallengeAnswers {
  const local = new Map<string, string>();
  const item = (token: string) => `challenge/${token}`;
  return {
    async set(token, value) { local.set(token, value); await shared?.state.putTlsItem(item(token), value, shared.now()); },
    async delete(token) { local.delete(token); await shared?.state.deleteTlsItem(item(token)); },
    async get(token) { return local.get(token) ?? (shared ? await shared.state.getTlsItem(item(token)) : null); },
  };
}

/** The answer to a request for a challenge path, or null when it is not one. */
export async function answerChallenge(answers: ChallengeAnswers, path: string): Promise<Response | null> {
  if (!path.startsWith(CHALLENGE_PREFIX)) return null;
  const token = path.slice(CHALLENGE_PREFIX.length);
  const value = /^[\w-]+$/.test(token) ? await answers.get(token) : null;
  return value ? new Response(value, { headers: { "content-type": "application/octet-stream" } }) : new Response("not found", { status: 404 });
}
