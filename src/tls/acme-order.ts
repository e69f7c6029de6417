// One ACME (RFC 8555) order through acme-client (checked against Pebble under Bun): the account
// (created or found by its key), HTTP-01 answers handed to `challenges`, a fresh key and CSR per
// certificate. The steps are acme-client's own calls in order rather than its `auto()`: auto
// parses the CSR with @peculiar/x509, which breaks under this tree's two copies of
// @peculiar/asn1-schema (mailauth pins 2.8.0), and pre-checks the challenge URL through the
// system resolver, which need not be the one the CA uses. The CSR comes from acme-client's forge
// helper (RSA 2048, the key made by node:crypto).
import { Agent } from "node:https";
import { generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import type { KeyPair } from "./cert-store.ts";
import type { ChallengeAnswers } from "./challenges.ts";

export interface AcmeSettings {
  directory: string;
  email: string;
  /** A PEM file of extra CAs to trust when talking to the directory ("" for the system's); read at each order. */
  caFile: string;
}

type Acme = typeof import("acme-client");
let loaded: Promise<Acme> | null = null;
/**
 * acme-client (with axios and its ASN.1 stack) loads on the first order only: a server without
 * ACME never holds it (about 2 % of start-up CPU and memory for nothing).
 */
function acmeClient(): Promise<Acme> {
  return (loaded ??= import("acme-client").then((acme) => {
    // acme-client retries a failed request up to 5 times, 5 s more each time (75 s in all): the
    // provider has its own backoff and reports the failure meanwhile, so one quick retry is enough.
    Object.assign((acme.axios.defaults as unknown as { acmeSettings: object }).acmeSettings, { retryMaxAttempts: 1, retryDefaultDelay: 2 });
    return acme;
  }));
}

/** Thrown when the directory cannot be fetched at all (refused, no route, bad TLS): retried sooner. */
export class CaUnreachable extends Error {}

/**
 * Fetches the directory first: when the CA is down, acme-client's error after its retries is a
 * TypeError of its own ("response.config"), so this says what happened instead.
 */
async function reachable(s: { directory: string; caPem: string }) {
  try {
    const res = await fetch(s.directory, { signal: AbortSignal.timeout(15_000), ...(s.caPem ? { tls: { ca: s.caPem } } : {}) });
    if (!res.ok) throw new CaUnreachable(`the ACME directory ${s.directory} answered ${res.status}`);
  } catch (e) {
    if (e instanceof CaUnreachable) throw e;
    const err = e as { code?: string; message?: string };
    throw new CaUnreachable(`the ACME directory ${s.directory} is unreachable: ${[err.code, err.message].filter(Boolean).join(": ")}`);
  }
}

let trusted = "";
/** acme-client talks through one shared axios instance: extra CAs are set on it, once per value. */
function trust(acme: Acme, caPem: string) {
  if (caPem === trusted) return;
  trusted = caPem;
  acme.axios.defaults.httpsAgent = caPem ? new Agent({ ca: caPem }) : undefined;
}

export const newAccountKey = async (): Promise<string> => (await (await acmeClient()).crypto.createPrivateEcdsaKey()).toString();

export async function orderCertificate(settings: AcmeSettings, accountKey: string, names: string[], challenges: ChallengeAnswers): Promise<KeyPair> {
  if (!names.length) throw new Error("no names to certify: set [tls] hostnames, or a server.public_url or mta.hostname with a public host name");
  const s = { ...settings, caPem: settings.caFile ? readFileSync(settings.caFile, "utf8") : "" };
  const acme = await acmeClient();
  trust(acme, s.caPem);
  await reachable(s);
  const client = new acme.Client({ directoryUrl: s.directory, accountKey, backoffAttempts: 10, backoffMin: 1000, backoffMax: 10_000 });
  // An account that exists answers 200, after which acme-client sends the same fields as an update;
  // with nothing to change Pebble refuses that as an "empty update": the account is found all the same.
  await client.createAccount({ termsOfServiceAgreed: true, ...(s.email ? { contact: [`mailto:${s.email}`] } : {}) })
    .catch((e: Error) => { if (!/POST-as-GET|empty update/i.test(e.message)) throw e; });
  const order = await client.createOrder({ identifiers: names.map((value) => ({ type: "dns", value })) });
  const tokens: string[] = [];
  try {
    for (const authz of await client.getAuthorizations(order)) {
      if (authz.status === "valid") continue;
      const challenge = authz.challenges.find((c) => c.type === "http-01");
      if (!challenge) throw new Error(`the CA offers no http-01 challenge for ${authz.identifier.value}`);
      await challenges.set(challenge.token, await client.getChallengeKeyAuthorization(challenge));
      tokens.push(challenge.token);
      await client.completeChallenge(challenge);
      await client.waitForValidStatus(challenge);
    }
  } finally {
    for (const t of tokens) await challenges.delete(t).catch(() => {});
  }
  const key = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs1", format: "pem" }).toString();
  const [, csr] = await acme.forge.createCsr({ commonName: names[0]!, altNames: names }, key);
  const finalized = await client.finalizeOrder(order, csr);
  return { cert: await client.getCertificate(finalized), key };
}

/** A short reason for /healthz and the log (acme-client's errors carry the CA's problem detail). */
export function describeAcmeError(e: unknown): string {
  const err = e as { message?: string; code?: string; cause?: { message?: string } };
  const text = err?.message || String(e);
  return err?.code && !text.includes(err.code) ? `${err.code}: ${text}` : text;
}
