// Loads the configuration: embedded defaults < TOML file < POSTERN_<SECTION>_<KEY> environment.
// Every problem is reported with the file, the key and the reason; the result is frozen.
import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { KEYS, SECTIONS, ZONE_TABLE_KEYS, findKey, type KeyDef } from "./schema.ts";
import { parseDuration } from "../core/values/duration.ts";
import { parseSize } from "./size.ts";
import { emptyShaping, parseShaping, type ShapingConfig } from "./shaping.ts";
import { applyEgressTable, checkEgress } from "./egress.ts";
import { checkDoctor } from "./doctor.ts";
import type { EgressSourceConfig } from "../core/egress/directory.ts";

export interface Config {
  /** The file the config came from, or null for embedded defaults. */
  file: string | null;
  server: {
    listen: string; public_url: string; zone: string; node_id: string; claim_lease: number; trusted_proxies: string[];
    rate_limit_per_key: number; rate_limit_per_ip: number; shutdown_grace: number;
  };
  storage: { engine: "sqlite" | "postgres"; postgres_url: string; control_url: string; data_dir: string; templates_dir: string; min_free: number };
  zones: { names: string[]; default: string; proxy_timeout: number; remote: Record<string, RemoteZone> };
  mta: {
    hostname: string; bounce_domain: string; max_queue_lifetime: number; retry: number[]; dns_servers: string[];
    soft_bounce_limit: number; soft_bounce_window: number;
    max_connections: number; max_connections_per_host: number; messages_per_connection: number; signing_workers: number;
    routes: Record<string, string>;
    /** Outbound DANE (docs/outbound-tls.md). */
    dane: "auto" | "on" | "off"; dnssec_broken_probe: string; tls_reports: boolean; tls_reports_from: string;
    /** [mta.shaping] (src/config/shaping.ts). */
    shaping: ShapingConfig;
    /** [mta.egress.NAME] sources and [mta.pools.NAME] pools (config/egress.ts). */
    egress: Record<string, EgressSourceConfig>; pools: Record<string, { sources: string[] }>;
  };
  smtp: {
    listen: string; allow_insecure_auth: boolean; tls_cert: string; tls_key: string; max_message_size: number;
    max_report_size: number; max_connections_per_ip: number; connections_per_minute_per_ip: number;
  };
  inbound: { spamd: string; spamd_timeout: number; spamd_max_size: number };
  webhooks: { allow_private: boolean; retry: number[]; lifetime: number; timeout: number; concurrency_per_target: number; probe_interval: number };
  validation: { smtp_probe: boolean };
  /** Milliseconds; 0: forever. */
  alerts: { webhook: string; email: string[]; interval: number };
  retention: { events: number; messages: number; inbound: number; audit: number };
  console: { require_totp: boolean; invite_from: string; oidc: OidcConfig };
  tls: {
    acme: boolean; acme_directory: string; acme_email: string; acme_ca_file: string; hostnames: string[]; http_listen: string;
    cert_file: string; key_file: string; reload_interval: number;
  };
  /** Milliseconds; 0: only on demand. */
  doctor: { interval: number; port25_probe: string; public_addresses: string[] };
  blocklists: { ip_zones: string[]; domain_zones: string[]; spamhaus_dqs_key: string };
  /** Milliseconds; rotate_after 0: only by hand. */
  dkim: { rotate_after: number; retire_after: number };
}

/** [console.oidc] (docs/team.md). */
export interface OidcConfig { issuer: string; client_id: string; client_secret: string; auto_create: boolean }

/** A zone other nodes serve: `url` takes its proxied API requests, `public_url` is its tracking links' base. */
export interface RemoteZone { url: string; public_url: string }

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "ConfigError";
  }
}

/** Where the config file is looked for: --config, $POSTERN_CONFIG, ./postern.toml, /etc/postern/postern.toml. */
export function findConfigFile(explicit: string | undefined, env: Record<string, string | undefined>): string | null {
  if (explicit) return explicit;
  if (env.POSTERN_CONFIG) return env.POSTERN_CONFIG;
  for (const candidate of ["./postern.toml", "/etc/postern/postern.toml"]) if (existsSync(candidate)) return candidate;
  return null;
}

type Raw = Record<string, unknown>;

function coerce(def: KeyDef, value: unknown, where: string, problems: string[]): unknown {
  const bad = (why: string) => { problems.push(`${where}: ${def.section}.${def.key}: ${why}`); return undefined; };
  switch (def.type) {
    case "string": return typeof value === "string" ? value : bad(`expected a string, got ${JSON.stringify(value)}`);
    case "bool": return typeof value === "boolean" ? value : bad(`expected true or false, got ${JSON.stringify(value)}`);
    case "int": return Number.isInteger(value) && (value as number) >= 0 ? value : bad(`expected a whole number, got ${JSON.stringify(value)}`);
    case "strings":
      return Array.isArray(value) && value.every((v) => typeof v === "string") ? value : bad("expected an array of strings");
    case "duration": {
      // "0" is a duration too: retention's "forever".
      const ms = typeof value === "string" ? (value.trim() === "0" ? 0 : parseDuration(value)) : null;
      return ms ?? bad(`expected a duration such as "30s", "5m", "2h" or "5d", got ${JSON.stringify(value)}`);
    }
    case "size": {
      const bytes = typeof value === "string" ? parseSize(value) : Number.isInteger(value) && (value as number) >= 0 ? value as number : null;
      return bytes ?? bad(`expected a size such as "0", "512MiB" or "1GiB", got ${JSON.stringify(value)}`);
    }
    case "durations": {
      if (!Array.isArray(value) || value.length === 0) return bad("expected a non-empty array of durations");
      const ms = value.map((v) => (typeof v === "string" ? parseDuration(v) : null));
      return ms.every((m) => m !== null) ? ms : bad(`expected durations such as "30s" or "5m", got ${JSON.stringify(value)}`);
    }
    case "table": {
      const ok = value && typeof value === "object" && !Array.isArray(value) && Object.values(value).every((v) => typeof v === "string");
      return ok ? value : bad('expected a table of "name" = "host:port" strings');
    }
  }
}

function applyFile(target: Record<string, Raw>, raw: Raw, where: string, problems: string[]) {
  for (const [section, body] of Object.entries(raw)) {
    if (!SECTIONS.some((s) => s.name === section)) { problems.push(`${where}: [${section}]: unknown section`); continue; }
    if (!body || typeof body !== "object" || Array.isArray(body)) { problems.push(`${where}: ${section}: expected a table`); continue; }
    for (const [key, value] of Object.entries(body as Raw)) {
      const def = findKey(section, key);
      if (section === "zones" && !def && value && typeof value === "object" && !Array.isArray(value)) {
        applyZoneTable(target, key, value as Raw, where, problems);
        continue;
      }
      if (section === "console" && key === "oidc" && !def && value && typeof value === "object") { applyFile(target, { "console.oidc": value }, where, problems); continue; }
      if (section === "mta" && key === "shaping") { target.mta!.shaping = parseShaping(value, where, problems); continue; }
      if (section === "mta" && !def && applyEgressTable(target.mta!, key, value, where, problems)) continue;
      if (!def) { problems.push(`${where}: ${section}.${key}: unknown key`); continue; }
      const v = coerce(def, value, where, problems);
      if (v !== undefined) target[section]![key] = v;
    }
  }
}

function applyZoneTable(target: Record<string, Raw>, zone: string, body: Raw, where: string, problems: string[]) {
  const table: Partial<RemoteZone> = {};
  for (const [key, value] of Object.entries(body)) {
    if (!ZONE_TABLE_KEYS.includes(key)) problems.push(`${where}: zones.${zone}.${key}: unknown key`);
    else if (typeof value !== "string" || !/^https?:\/\/[^/\s]+/.test(value)) problems.push(`${where}: zones.${zone}.${key}: expected an http(s) URL`);
    else table[key as keyof RemoteZone] = value.replace(/\/+$/, "");
  }
  if (!table.url) {
    if (table.public_url) problems.push(`${where}: zones.${zone}.public_url: needs zones.${zone}.url (the nodes that serve the zone)`);
    return;
  }
  (target.zones!.remote as Record<string, RemoteZone>)[zone] = { url: table.url, public_url: table.public_url ?? table.url };
}

function envValue(def: KeyDef, text: string): unknown {
  switch (def.type) {
    case "bool": return text === "true" ? true : text === "false" ? false : text;
    case "int": return /^\d+$/.test(text) ? Number(text) : text;
    case "strings": case "durations":
      return text.trim().startsWith("[") ? safeJson(text) : text.split(",").map((s) => s.trim()).filter(Boolean);
    case "table": return safeJson(text);
    default: return text;
  }
}

function safeJson(text: string): unknown {
  try { return JSON.parse(text); } catch { return text; }
}

function applyEnv(target: Record<string, Raw>, env: Record<string, string | undefined>, problems: string[]) {
  for (const def of KEYS) {
    const name = `POSTERN_${def.section.replace(".", "_")}_${def.key}`.toUpperCase();
    const text = env[name];
    if (text === undefined) continue;
    const v = coerce(def, envValue(def, text), name, problems);
    if (v !== undefined) target[def.section]![def.key] = v;
  }
}

function checkMeaning(cfg: Config, where: string, problems: string[]) {
  const hostPort = /^(\[[0-9a-fA-F:]+\]|[^:\s]+):\d{1,5}$/;
  if (!hostPort.test(cfg.server.listen)) problems.push(`${where}: server.listen: expected host:port, got "${cfg.server.listen}"`);
  if (!hostPort.test(cfg.smtp.listen)) problems.push(`${where}: smtp.listen: expected host:port, got "${cfg.smtp.listen}"`);
  if (!/^https?:\/\//.test(cfg.server.public_url)) problems.push(`${where}: server.public_url: expected an http(s) URL`);
  checkOidc(cfg.console.oidc, where, problems);
  if (!cfg.zones.names.includes(cfg.zones.default)) problems.push(`${where}: zones.default: "${cfg.zones.default}" is not in zones.names`);
  if (!cfg.zones.names.includes(cfg.server.zone)) problems.push(`${where}: server.zone: "${cfg.server.zone}" is not in zones.names`);
  for (const name of Object.keys(cfg.zones.remote)) if (!cfg.zones.names.includes(name)) problems.push(`${where}: zones.${name}: "${name}" is not in zones.names`);
  if (cfg.zones.remote[cfg.server.zone]) problems.push(`${where}: server.zone: "${cfg.server.zone}" cannot be served by another node`);
  for (const name of cfg.zones.names) if (!/^[a-z0-9-]{1,32}$/.test(name)) problems.push(`${where}: zones.names: "${name}" must be lower-case letters, digits or -`);
  for (const [dom, hop] of Object.entries(cfg.mta.routes)) if (!/^[^\s:]+(:\d{1,5})?$/.test(hop)) problems.push(`${where}: mta.routes."${dom}": expected host[:port], got "${hop}"`);
  if (!["auto", "on", "off"].includes(cfg.mta.dane)) problems.push(`${where}: mta.dane: expected "auto", "on" or "off", got "${cfg.mta.dane}"`);
  if (cfg.storage.engine !== "sqlite" && cfg.storage.engine !== "postgres") problems.push(`${where}: storage.engine: expected "sqlite" or "postgres", got "${cfg.storage.engine}"`);
  if (cfg.storage.engine === "postgres" && !/^postgres(ql)?:\/\//.test(cfg.storage.postgres_url)) problems.push(`${where}: storage.postgres_url: engine "postgres" needs a postgres:// URL`);
  if (cfg.storage.control_url && !/^postgres(ql)?:\/\//.test(cfg.storage.control_url)) problems.push(`${where}: storage.control_url: expected a postgres:// URL or empty`);
  if (cfg.inbound.spamd && !/^(\[[0-9a-fA-F:]+\]|[^:\s\[\]]+)(:\d{1,5})?$/.test(cfg.inbound.spamd)) problems.push(`${where}: inbound.spamd: expected host[:port], got "${cfg.inbound.spamd}"`);
  if (cfg.alerts.interval < 1000) problems.push(`${where}: alerts.interval: at least 1s`);
  if (cfg.tls.reload_interval < 100) problems.push(`${where}: tls.reload_interval: at least 100ms`);
  if (cfg.webhooks.probe_interval < 100) problems.push(`${where}: webhooks.probe_interval: at least 100ms (each probe is a POST to a failing target)`);
  if (cfg.server.claim_lease < 1000) problems.push(`${where}: server.claim_lease: at least 1s (the lease is renewed every third of it)`);
  if (Boolean(cfg.smtp.tls_cert) !== Boolean(cfg.smtp.tls_key)) problems.push(`${where}: smtp.tls_cert and smtp.tls_key must be set together`);
  if (Boolean(cfg.tls.cert_file) !== Boolean(cfg.tls.key_file)) problems.push(`${where}: tls.cert_file and tls.key_file must be set together`);
  if (cfg.alerts.webhook && !/^https?:\/\/[^/\s]+/.test(cfg.alerts.webhook)) problems.push(`${where}: alerts.webhook: expected an http(s) URL, got "${cfg.alerts.webhook}"`);
  for (const a of cfg.alerts.email) if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(a)) problems.push(`${where}: alerts.email: expected e-mail addresses, got "${a}"`);
  if (cfg.tls.acme && cfg.tls.cert_file) problems.push(`${where}: tls.acme and tls.cert_file: choose one (ACME or certificate files)`);
  if (cfg.tls.acme && !/^https:\/\//.test(cfg.tls.acme_directory)) problems.push(`${where}: tls.acme_directory: expected an https URL`);
  if (cfg.tls.http_listen && !hostPort.test(cfg.tls.http_listen)) problems.push(`${where}: tls.http_listen: expected host:port, got "${cfg.tls.http_listen}"`);
}

/** Reads and validates the configuration; throws ConfigError listing every problem. */
export function loadConfig(opts: { file: string | null; env?: Record<string, string | undefined>; cwd?: string }): Config {
  const env = opts.env ?? {};
  const problems: string[] = [];
  const target: Record<string, Raw> = {};
  for (const s of SECTIONS) target[s.name] = {};
  for (const def of KEYS) target[def.section]![def.key] = structuredClone(def.default);
  for (const def of KEYS) {
    if (def.type === "duration") target[def.section]![def.key] = parseDuration(def.default as string);
    if (def.type === "size") target[def.section]![def.key] = parseSize(def.default as string);
    if (def.type === "durations") target[def.section]![def.key] = (def.default as string[]).map((d) => parseDuration(d)!);
  }
  target.zones!.remote = {};
  target.mta!.shaping = emptyShaping();
  target.mta!.egress = {};
  target.mta!.pools = {};
  const where = opts.file ?? "defaults";
  if (opts.file) {
    let text: string;
    try { text = readFileSync(opts.file, "utf8"); } catch (e) { throw new ConfigError([`${opts.file}: cannot read: ${(e as Error).message}`]); }
    let raw: Raw;
    try { raw = Bun.TOML.parse(text) as Raw; } catch (e) { throw new ConfigError([`${opts.file}: syntax error: ${(e as Error).message}`]); }
    applyFile(target, raw, opts.file, problems);
  }
  applyEnv(target, env, problems);
  // [console.oidc] is a table of [console]: config.console.oidc.
  target.console!.oidc = target["console.oidc"]!;
  delete target["console.oidc"];
  const cfg = { file: opts.file, ...target } as unknown as Config;
  checkMeaning(cfg, where, problems);
  checkEgress(cfg.mta, where, problems);
  checkDoctor(cfg, where, problems);
  if (problems.length) throw new ConfigError(problems);
  const base = opts.file ? dirname(resolve(opts.cwd ?? process.cwd(), opts.file)) : resolve(opts.cwd ?? process.cwd());
  cfg.storage.data_dir = isAbsolute(cfg.storage.data_dir) ? cfg.storage.data_dir : resolve(base, cfg.storage.data_dir);
  for (const k of ["cert_file", "key_file", "acme_ca_file"] as const) if (cfg.tls[k] && !isAbsolute(cfg.tls[k])) cfg.tls[k] = resolve(base, cfg.tls[k]);
  cfg.storage.templates_dir = isAbsolute(cfg.storage.templates_dir) ? cfg.storage.templates_dir : resolve(base, cfg.storage.templates_dir);
  return deepFreeze(cfg);
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === "object") { for (const v of Object.values(o)) deepFreeze(v); Object.freeze(o); }
  return o;
}

/** The issuer over https, or http only on a loopback address (contract §14); a client id with it. */
function checkOidc(o: OidcConfig, where: string, problems: string[]) {
  if (!o.issuer) return;
  let url: URL | null = null;
  try { url = new URL(o.issuer); } catch { /* reported below */ }
  const loopback = url !== null && /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(url.hostname);
  if (!url || !(url.protocol === "https:" || (url.protocol === "http:" && loopback))) {
    problems.push(`${where}: console.oidc.issuer: expected an https URL (http only on a loopback address), got "${o.issuer}"`);
  }
  if (!o.client_id) problems.push(`${where}: console.oidc.client_id: needed with console.oidc.issuer`);
}
