// Certificates of the tracking hosts (docs/tracking-hosts.md): one certificate provider per host
// that resolves here, each ordering its own certificate (HTTP-01, the same ACME account and
// challenge answers as the main certificate) and kept in data_dir/tls/hosts/<host>/ (or the
// control database's TLS items when nodes share PostgreSQL). The HTTPS listener serves them by
// SNI (`pairs()`). One host's failure never holds up another's or the main certificate. With
// certificate files instead of ACME nothing is ordered: a host is valid when the files cover it.
import type { CertificateStatus, TrackingCertificates } from "../core/tracking-hosts.ts";
import type { TlsStateStore } from "../core/store-port.ts";
import type { Logger } from "../log.ts";
import { createCertificateProvider, type CertificateProvider } from "./provider.ts";
import { createAcmeSource } from "./acme-source.ts";
import type { AcmeSettings } from "./acme-order.ts";
import type { ChallengeAnswers } from "./challenges.ts";
import { createFileCertStore } from "./cert-store.ts";
import { createDbCertStore } from "./db-cert-store.ts";
import type { CertInfo } from "./cert-info.ts";

export interface SniPair { serverName: string; cert: string; key: string }

export interface HostCertificates extends TrackingCertificates {
  /** The certificates to serve by SNI, one per host that has one. */
  pairs(): SniPair[];
  stop(): void;
}

/** True when `info` names `host` itself or by a wildcard one label up (RFC 6125 §6.4.3). */
export function certificateNames(info: CertInfo, host: string): boolean {
  const h = host.toLowerCase();
  return info.names.some((n) => { const name = n.toLowerCase(); return name === h || (name.startsWith("*.") && h.slice(h.indexOf(".") + 1) === name.slice(2)); });
}

const validFor = (info: CertInfo | null, host: string, now: number) => Boolean(info && info.notBefore <= now && now < info.notAfter && certificateNames(info, host));

export function createHostCertificates(deps: {
  /** The main certificate's provider: the listener serves HTTPS only once it has one. */
  main: CertificateProvider;
  acme: { settings: AcmeSettings; challenges: ChallengeAnswers; dataDir: string; shared?: TlsStateStore } | null;
  now: () => number;
  log: Logger;
}): HostCertificates {
  const providers = new Map<string, CertificateProvider>();
  const listeners: (() => void)[] = [];
  const tell = () => { for (const fn of listeners) { try { fn(); } catch (e) { deps.log.error("a listener refused a tracking host certificate", { error: String(e) }); } } };
  deps.main.onChange(() => tell());

  function providerFor(host: string): CertificateProvider {
    const acme = deps.acme!;
    const store = acme.shared ? createDbCertStore(acme.shared, deps.now, `hosts/${host}/`) : createFileCertStore(acme.dataDir, `hosts/${host}`);
    const provider = createCertificateProvider({ source: createAcmeSource({ settings: acme.settings, names: [host], challenges: acme.challenges, store }),
      now: deps.now, log: deps.log.child(`tracking-host ${host}`) });
    provider.onChange(() => tell());
    return provider;
  }

  return {
    canOrder: deps.acme !== null,
    want(hosts) {
      if (!deps.acme) return;
      const wanted = new Set(hosts.map((h) => h.toLowerCase()));
      for (const [host, p] of providers) if (!wanted.has(host)) { p.stop(); providers.delete(host); }
      for (const host of wanted) {
        if (providers.has(host)) continue;
        const p = providerFor(host);
        providers.set(host, p);
        void p.start();
      }
    },
    valid(host) {
      if (!deps.main.current()) return false;
      const now = deps.now();
      return validFor(providers.get(host)?.info() ?? null, host, now) || validFor(deps.main.info(), host, now);
    },
    status(host): CertificateStatus {
      const p = providers.get(host);
      const info = p?.info() ?? (deps.main.info() && certificateNames(deps.main.info()!, host) ? deps.main.info() : null);
      const pem = p?.current()?.cert ?? (info ? deps.main.current()?.cert : undefined);
      const health = p?.health();
      if (info && deps.now() >= info.notAfter) return { state: "expired", certificate: pem, notAfter: info.notAfter, ...(health?.error ? { error: health.error } : {}) };
      if (info) return { state: "active", certificate: pem, notAfter: info.notAfter };
      if (health?.state === "error") return { state: "error", error: health.error };
      return p ? { state: "processing" } : { state: "none" };
    },
    async renew(host) {
      const p = providers.get(host);
      if (!p) throw new Error(`no certificate is kept for ${host}: it does not resolve to this server`);
      const r = await p.renew(true);
      if (!r.ok) throw new Error(r.error ?? "the order failed");
    },
    onChange(fn) { listeners.push(fn); },
    pairs() {
      const out: SniPair[] = [];
      for (const [host, p] of providers) { const pair = p.current(); if (pair) out.push({ serverName: host, cert: pair.cert, key: pair.key }); }
      return out;
    },
    stop() { for (const p of providers.values()) p.stop(); },
  };
}
