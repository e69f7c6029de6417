// HTTP-01 answers while an order is open: token -> key authorization, served on `http_listen`
// under /.well-known/acme-challenge/<token> (RFC 8555 §8.3).
export type ChallengeAnswers = Map<string, string>;

export const CHALLENGE_PREFIX = "/.well-known/acme-challenge/";

export const createChallengeAnswers = (): ChallengeAnswers => new Map();

/** The answer to a request for a challenge path, or null when it is not one. */
export function answerChallenge(answers: ChallengeAnswers, path: string): Response | null {
  if (!path.startsWith(CHALLENGE_PREFIX)) return null;
  const value = answers.get(path.slice(CHALLENGE_PREFIX.length));
  return value ? new Response(value, { headers: { "content-type": "application/octet-stream" } }) : new Response("not found", { status: 404 });
}
