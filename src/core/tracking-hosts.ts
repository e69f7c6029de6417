// Tracking hosts (contract §13, docs/tracking-hosts.md): each sending domain's own host for links
// and pixels. Setting one (accepted before its record exists), checking it through the resolver
// against this server's addresses, recording the state on the domain, asking the certificate
// provider for a certificate once it resolves, and the link base the message builder asks for.
import type { Domain } from "./model.ts";
import type { ControlStore } from "./store-port.ts";
import type { TrackingHostStore } from "./tracking-host-port.ts";
import type { Resolver } from "../dns.ts";
import { conflict, invalid, notFound } from "./errors.ts";
import { DOMAIN_NAME } from "./domains.ts";
import { addressesOf } from "./server-addresses.ts";
import {
  defaultTrackingHost, judgeTrackingHost, linkBaseOf, trackingHostOf, trackingStateOf, type LinkOrigins, type TrackingState,
} from "./tracking-host-rules.ts";

/** Certificates for tracking hosts, served by SNI (src/tls/host-certificates.ts); absent without [tls]. */
export interface TrackingCertificates {
  /** True when certificates are ordered here ([tls] acme); with certificate files only what they cover is valid. */
  canOrder: boolean;
  /** The hosts that resolve here: a certificate is ordered and kept for each; the others are let go. */
  want(hosts: string[]): void;
  /** A certificate valid now for `host` is served by SNI on the HTTPS listener. */
  valid(host: string): boolean;
  status(host: string): CertificateStatus;
  /** Orders a new certificate for `host` now (a wanted host only). */
  renew(host: string): Promise<void>;
  onChange(fn: () => void): void;
}

export interface CertificateStatus {
  state: "active" | "processing" | "expired" | "error" | "none";
  error?: string;
  /** PEM of the certificate served, when there is one. */
  certificate?: string;
  notAfter?: number;
}

export interface TrackingHostView {
  domain: string;
  domainId: number;
  host: string;
  isDefault: boolean;
  state: TrackingState;
  note: string;
  /** The base of new mail's links: the host's own once it resolves here, else public_url. */
  linkBase: string;
  certificate: CertificateStatus;
}

export interface TrackingHostDeps {
  control: Pick<ControlStore, "getDomain" | "listDomains"> & TrackingHostStore;
  resolver: Resolver;
  now: () => number;
  /** This server's addresses (core/server-addresses.ts `serverAddresses`). */
  serverAddresses: () => Promise<string[]>;
  origins: LinkOrigins;
  certificates?: TrackingCertificates;
  onError?: (e: unknown) => void;
}

const NO_CERTIFICATE: CertificateStatus = { state: "none" };
/** How often the server checks every host: a record published now is used within this. */
export const TRACKING_CHECK_INTERVAL_MS = 5 * 60_000;
/**
 * A pending host is checked again when mail is built for its domain and it was last checked longer
 * ago than this (at once for a host set since its last check): a record published or a host set
 * just before sending is used by that mail, not the mail of the next tick.
 */
export const PENDING_RECHECK_MS = 60_000;
/** How long building a message waits for that check before it goes on with public_url. */
const RECHECK_WAIT_MS = 3_000;

export function createTrackingHostService(deps: TrackingHostDeps) {
  const { control } = deps;
  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<void> | null = null;
  /** When this process last checked each domain's host, and the checks under way. */
  const checkedAt = new Map<string, number>();
  const rechecks = new Map<string, Promise<Domain>>();

  async function require(name: string): Promise<Domain> {
    const d = await control.getDomain(name.toLowerCase());
    if (!d) throw notFound(`domain ${name} not found`);
    return d;
  }

  const view = (d: Domain): TrackingHostView => ({
    domain: d.name, domainId: d.id, host: trackingHostOf(d), isDefault: !d.tracking?.host, state: trackingStateOf(d),
    note: d.tracking?.note ?? "", linkBase: linkBaseOf(d, deps.origins),
    certificate: deps.certificates?.status(trackingHostOf(d)) ?? NO_CERTIFICATE,
  });

  /** Looks the host up and records the verdict when it changed; returns the domain as it now is. */
  async function checkDomain(d: Domain, ours: string[]): Promise<Domain> {
    const host = trackingHostOf(d);
    checkedAt.set(d.name, deps.now());
    const { addresses, error } = await addressesOf(deps.resolver, host);
    const verdict = judgeTrackingHost({ found: error ? null : addresses, cause: error ?? undefined, ours,
      certificateValid: deps.certificates?.valid(host) ?? false, previous: trackingStateOf(d) });
    if (verdict.state === trackingStateOf(d) && verdict.note === (d.tracking?.note ?? "")) return d;
    await control.recordTrackingState(d.name, verdict.state, verdict.note, deps.now());
    return (await control.getDomain(d.name)) ?? d;
  }

  async function checkAll(): Promise<void> {
    const ours = await deps.serverAddresses();
    for (const d of await control.listDomains()) await checkDomain(d, ours).catch((e) => deps.onError?.(e));
    await wantCertificates();
  }

  /** Checks one domain's host now (the vendors' verify/validate calls); orders its certificate once it resolves. */
  async function check(name: string): Promise<TrackingHostView> {
    const d = await checkDomain(await require(name), await deps.serverAddresses());
    if (trackingStateOf(d) !== "pending") await wantCertificates();
    return view(d);
  }

  /** Every host that resolves here gets (and keeps) its certificate; the others are let go. */
  async function wantCertificates(): Promise<void> {
    if (!deps.certificates) return;
    deps.certificates.want((await control.listDomains()).filter((x) => trackingStateOf(x) !== "pending").map(trackingHostOf));
  }

  /** Pending, and set since its last check (no note yet) or last checked here long enough ago. */
  const isStalePending = (d: Domain) => trackingStateOf(d) === "pending"
    && (!d.tracking?.note || deps.now() - (checkedAt.get(d.name) ?? 0) > PENDING_RECHECK_MS);

  /** One check per domain at a time, waited for at most RECHECK_WAIT_MS (a slow DNS server never holds up delivery long). */
  function recheck(d: Domain): Promise<Domain> {
    let p = rechecks.get(d.name);
    if (!p) {
      checkedAt.set(d.name, deps.now());
      p = deps.serverAddresses().then((ours) => checkDomain(d, ours)).then(async (now) => {
        if (trackingStateOf(now) !== "pending") await wantCertificates();
        return now;
      }).catch((e) => { deps.onError?.(e); return d; }).finally(() => rechecks.delete(d.name));
      rechecks.set(d.name, p);
    }
    return Promise.race([p, Bun.sleep(RECHECK_WAIT_MS).then(() => d)]);
  }

  /** One run at a time: a tick and a certificate arriving together share it. */
  const checkAllOnce = () => (running ??= checkAll().finally(() => { running = null; }));

  return {
    /** The base of the links of `domain`'s new mail (the message builder asks this). */
    async linkBase(domain: string): Promise<string> {
      const d = await control.getDomain(domain);
      if (!d) return deps.origins.publicUrl.replace(/\/+$/, "");
      return linkBaseOf(isStalePending(d) ? await recheck(d) : d, deps.origins);
    },
    async get(name: string): Promise<TrackingHostView> { return view(await require(name)); },
    async list(): Promise<TrackingHostView[]> { return (await control.listDomains()).map(view); },
    /** The domain whose tracking host `host` is, or null. */
    async byHost(host: string): Promise<TrackingHostView | null> {
      const h = host.trim().toLowerCase().replace(/\.$/, "");
      const d = (await control.listDomains()).find((x) => trackingHostOf(x) === h);
      return d ? view(d) : null;
    },
    /** Sets `name`'s tracking host ("" or the default: back to `email.<domain>`); accepted before its record exists. */
    async set(name: string, host: string): Promise<TrackingHostView> {
      const d = await require(name);
      const h = host.trim().toLowerCase().replace(/\.$/, "");
      if (h && !DOMAIN_NAME.test(h)) throw invalid(`"${host}" is not a valid host name`, "tracking_host");
      const stored = h === defaultTrackingHost(d.name) ? "" : h;
      if (stored === (d.tracking?.host ?? "")) return view(d);
      const other = (await control.listDomains()).find((x) => x.id !== d.id && trackingHostOf(x) === (h || defaultTrackingHost(d.name)));
      if (other) throw conflict(`${h || defaultTrackingHost(d.name)} is already the tracking host of ${other.name}`);
      await control.setTrackingHost(d.name, stored, deps.now());
      return view(await require(d.name));
    },
    check,
    checkAll: checkAllOnce,
    /** True when certificates for tracking hosts are ordered here ([tls] acme). */
    canOrderCertificates: () => deps.certificates?.canOrder ?? false,
    /** Orders a new certificate for the domain's host now; refused while the host does not resolve here. */
    async renewCertificate(name: string): Promise<TrackingHostView> {
      const v = await check(name);
      if (!deps.certificates?.canOrder) throw invalid("certificates are ordered only with [tls] acme", "tls");
      if (v.state === "pending") throw invalid(`${v.host} does not resolve to this server: ${v.note}`, "tracking_host");
      await deps.certificates.renew(v.host);
      return view(await require(name));
    },
    /** The periodic check (server tick): every host now, then every `intervalMs`, and when a certificate changes. */
    start(intervalMs = TRACKING_CHECK_INTERVAL_MS) {
      if (timer) return;
      const run = () => void checkAllOnce().catch((e) => deps.onError?.(e));
      deps.certificates?.onChange(run);
      timer = setInterval(run, intervalMs);
      timer.unref?.();
      run();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => {});
    },
  };
}

export type TrackingHostService = ReturnType<typeof createTrackingHostService>;
