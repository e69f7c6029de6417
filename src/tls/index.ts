// src/tls: the certificate provider and the listeners' side of it, built from `[tls]`. null when
// neither ACME nor certificate files are configured (plain HTTP, STARTTLS only from [smtp]).
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Config } from "../config/load.ts";
import type { Logger } from "../log.ts";
import { createCertificateProvider, type CertificateProvider } from "./provider.ts";
import { createAcmeSource } from "./acme-source.ts";
import { createFileSource } from "./file-source.ts";
import { createFileCertStore } from "./cert-store.ts";
import { createDbCertStore } from "./db-cert-store.ts";
import type { TlsStateStore } from "../core/store-port.ts";
import { createChallengeAnswers } from "./challenges.ts";
import { createHttpRedirect } from "./http-redirect.ts";
import { certInfo, type CertInfo } from "./cert-info.ts";
import { createHostCertificates } from "./host-certificates.ts";

export type { CertificateProvider } from "./provider.ts";
export { createHttpsListener } from "./https-listener.ts";

/**
 * The names to certify: `hostnames`, else the host of public_url and `mta.hostname` as configured
 * (not the machine's name it falls back to: that is rarely a public name a CA can check). IP
 * literals and single-label names (localhost) are left out: a public CA certifies neither.
 */
export function certificateNames(config: Config): string[] {
  const names = config.tls.hostnames.length ? config.tls.hostnames : [new URL(config.server.public_url).hostname, config.mta.hostname];
  return [...new Set(names.map((n) => n.toLowerCase()))].filter((n) => n.includes(".") && !/^[\d.]+$|:|^\[/.test(n));
}

export const tlsEnabled = (config: Config) => config.tls.acme || Boolean(config.tls.cert_file);

/** `shared`: the control database's TLS state when nodes share PostgreSQL (else data_dir/tls). */
export function createTls(deps: { config: Config; now: () => number; log: Logger; shared?: TlsStateStore }) {
  const { config } = deps;
  if (!tlsEnabled(config)) return null;
  const challenges = createChallengeAnswers(deps.shared ? { state: deps.shared, now: deps.now } : undefined);
  const source = config.tls.acme
    ? createAcmeSource({
      settings: { directory: config.tls.acme_directory, email: config.tls.acme_email, caFile: config.tls.acme_ca_file },
      names: certificateNames(config), challenges,
      store: deps.shared ? createDbCertStore(deps.shared, deps.now) : createFileCertStore(config.storage.data_dir),
    })
    : createFileSource({ cert: config.tls.cert_file, key: config.tls.key_file }, config.tls.reload_interval);
  const provider: CertificateProvider = createCertificateProvider({ source, now: deps.now, log: deps.log });
  // Tracking hosts' certificates, served by SNI beside this one (docs/tracking-hosts.md).
  const hosts = createHostCertificates({ main: provider, now: deps.now, log: deps.log, acme: config.tls.acme ? { challenges, dataDir: config.storage.data_dir,
    settings: { directory: config.tls.acme_directory, email: config.tls.acme_email, caFile: config.tls.acme_ca_file }, shared: deps.shared } : null });
  const redirect = config.tls.http_listen ? createHttpRedirect({ ...hostPort(config.tls.http_listen), publicUrl: config.server.public_url, challenges }) : null;
  return {
    provider, challenges, hosts,
    /** Starts http_listen first (the CA may call it at once), then the provider. */
    async start(): Promise<string | null> {
      const where = redirect?.start() ?? null;
      await provider.start();
      return where;
    },
    async stop() { provider.stop(); hosts.stop(); await redirect?.stop(); },
    /** `postern tls renew` with no server running: answers challenges itself for one renewal. */
    async renewHere(force: boolean) {
      redirect?.start();
      try { return await provider.renew(force); } finally { await this.stop(); }
    },
    /** The certificate kept (stored or configured), for `postern tls status`; null when none. */
    async kept(): Promise<CertInfo | null> {
      const pair = await source.load();
      return pair ? certInfo(pair.cert) : null;
    },
  };
}

export type Tls = NonNullable<ReturnType<typeof createTls>>;

function hostPort(text: string): { host: string; port: number } {
  const i = text.lastIndexOf(":");
  return { host: text.slice(0, i).replace(/^\[|\]$/g, ""), port: Number(text.slice(i + 1)) };
}

/** The path a `postern tls renew` posts to on the running server, and the token it proves itself with. */
export const RENEW_PATH = "/_postern/tls/renew";
export const renewToken = (secret: string) => createHmac("sha256", secret).update("postern tls renew").digest("hex");

/** Answers RENEW_PATH (POST, the token as bearer); null for every other request. */
export async function handleRenew(req: Request, path: string, tls: Tls | null, secret: string, server?: Bun.Server<undefined>): Promise<Response | null> {
  if (path !== RENEW_PATH) return null;
  const given = Buffer.from((req.headers.get("authorization") ?? "").replace(/^Bearer\s+/i, ""));
  const want = Buffer.from(renewToken(secret));
  if (req.method !== "POST" || given.length !== want.length || !timingSafeEqual(given, want)) return Response.json({ error: "forbidden" }, { status: 403 });
  if (!tls) return Response.json({ ok: false, error: "TLS is not configured ([tls] acme or cert_file)" }, { status: 409 });
  const force = new URL(req.url).searchParams.get("force") === "1";
  server?.timeout(req, 0); // an order with a real CA can outlast Bun's 10 s idle timeout; the CLI waits

  const result = await tls.provider.renew(force);
  return Response.json(result, { status: result.ok ? 200 : 502 });
}
