// `postern domain …`: add, list, show, dns, verify, set, disable, delete (and dkim: domain-dkim.ts).
import type { Command } from "commander";
import type { Domain } from "../../src/core/model.ts";
import type { DnsRecord } from "../../src/core/domain-dns.ts";
import { action } from "../context.ts";
import { fittedTable, isoTime, table, UsageError } from "../output.ts";
import { findKey } from "../../src/config/schema.ts";
import type { Config } from "../../src/config/load.ts";
import { trackingHostOf, trackingStateOf } from "../../src/core/tracking-host-rules.ts";
import { registerDomainDkim } from "./domain-dkim.ts";

const onOff = (v: string | undefined, flag: string): boolean | undefined => {
  if (v === undefined) return undefined;
  if (v === "on" || v === "true") return true;
  if (v === "off" || v === "false") return false;
  throw new UsageError(`${flag} takes on or off, got "${v}"`);
};

export const domainJson = (d: Domain) => ({
  name: d.name, state: d.state, zone: d.zone, wildcard: d.wildcard, dkim_selector: d.dkimSelector,
  validation: d.validation, bot_detection: d.botDetection, open_tracking: d.openTracking, click_tracking: d.clickTracking, inbound: d.inbound,
  limit: d.limitMax ? `${d.limitMax}/${d.limitWindow}` : null, pool: d.pool || null, created_at: isoTime(d.createdAt), updated_at: isoTime(d.updatedAt),
  tracking_host: trackingHostOf(d), tracking_state: trackingStateOf(d), ...(d.tracking?.note ? { tracking_note: d.tracking.note } : {}),
});

const recordJson = (r: DnsRecord) => ({ type: r.type, name: r.name, value: r.value, ...(r.priority !== undefined ? { priority: r.priority } : {}),
  purpose: r.purpose, required: r.required, ...(r.valid ? { valid: r.valid } : {}) });

// 80 columns: long values (DKIM keys) and names are shortened in the middle; --json has them whole.
const recordsHuman = (records: DnsRecord[]) =>
  fittedTable(records.map((r) => ({ ...recordJson(r), value: r.priority !== undefined ? `${r.priority} ${r.value}` : r.value })),
    records.some((r) => r.valid) ? ["type", "name", "value", "valid"] : ["type", "name", "value"], ["value", "name"]);

/** What a newcomer must set before publishing records: said on stderr, so --json stays clean. */
export function dnsWarnings(config: Config): string[] {
  const out: string[] = [];
  if (!config.mta.hostname) {
    out.push("[mta] hostname is not set: SPF names this machine's address and the bounce MX its bare host name. " +
      "Set it to this server's DNS name (A record and matching PTR) before publishing these records.");
  }
  if (config.server.public_url === findKey("server", "public_url")?.default) {
    out.push(`[server] public_url is still its default ${config.server.public_url}: tracking links and the email.<domain> record ` +
      "would point there. Set it to the URL the internet reaches this server at.");
  }
  return out;
}

const warnAboutDefaults = (config: Config) => {
  // Wrapped to 80 columns like the table.
  for (const w of dnsWarnings(config)) process.stderr.write(`${`postern: warning: ${w}`.replace(/(.{1,78})(\s+|$)/g, "$1\n  ").trimEnd()}\n`);
};

export function registerDomain(program: Command) {
  const domain = program.command("domain").description("sending domains: DKIM keys, DNS records, verification and settings");

  domain.command("add <name>").description("create a domain, generate its DKIM keys and print the DNS records to publish")
    .option("--zone <zone>", "data zone of the domain (default: zones.default)")
    .option("--wildcard", "also send from subdomains of NAME")
    .option("--tenant <tenant>", "the tenant (id or name) that owns it (default: 0, the primary account; docs/tenants.md)")
    .action(action(async (ctx, name: string, opts: { zone?: string; wildcard?: boolean; tenant?: string }) => {
      const app = await ctx.app();
      const tenant = opts.tenant === undefined ? undefined : (await app.tenants.require(opts.tenant)).id;
      const d = await app.domains.add(name, { zone: opts.zone, wildcard: opts.wildcard, tenant });
      const records = await app.domains.records(d.name);
      warnAboutDefaults(ctx.config());
      ctx.out.print({ domain: domainJson(d), records: records.map(recordJson) },
        () => `created ${d.name} (zone ${d.zone}, ${d.state}); publish these records, then run \`postern domain verify ${d.name}\`:\n${recordsHuman(records)}`);
    }));

  domain.command("list").description("list domains").action(action(async (ctx) => {
    const list = (await (await ctx.app()).domains.list()).map(domainJson);
    ctx.out.print(list, () => table(list, ["name", "state", "zone", "validation", "bot_detection", "open_tracking", "click_tracking", "limit"]));
  }));

  domain.command("show <name>").description("a domain's settings and state").action(action(async (ctx, name: string) => {
    const app = await ctx.app();
    // The key this domain's webhooks are signed with (account-level targets use the account's).
    const d = { ...domainJson(await app.domains.require(name)), webhook_signing_key: await app.events.keys.forDomain(name) };
    ctx.out.print(d, () => Object.entries(d).map(([k, v]) => `${k.padEnd(15)} ${v ?? "-"}`).join("\n"));
  }));

  domain.command("dns <name>").description("the DNS records to publish (SPF, DKIM keys pending, active and retiring, DMARC, bounce MX, tracking CNAME)")
    .action(action(async (ctx, name: string) => {
      const records = await (await ctx.app()).domains.records(name);
      warnAboutDefaults(ctx.config());
      ctx.out.print({ records: records.map(recordJson) }, () => recordsHuman(records));
    }));

  domain.command("verify <name>").description("check the DNS records and activate the domain")
    .option("--force", "activate without checking DNS (private relays, tests)")
    .action(action(async (ctx, name: string, opts: { force?: boolean }) => {
      const { domain: d, records } = await (await ctx.app()).domains.verify(name, Boolean(opts.force));
      warnAboutDefaults(ctx.config());
      ctx.out.print({ domain: domainJson(d), records: records.map(recordJson) }, () => `${d.name}: ${d.state}\n${recordsHuman(records)}`);
      if (d.state !== "active") {
        const missing = records.filter((r) => r.required && r.valid !== "valid").map((r) => r.name);
        process.stderr.write(`postern: ${d.name} is ${d.state}: required records not found: ${missing.join(", ")}\n`);
        process.exitCode = 1;
      }
    }));

  domain.command("set <name>").description("change domain settings")
    .option("--validation <on|off>", "address validation API for this domain")
    .option("--bot-detection <on|off>", "bot classification of opens and clicks")
    .option("--open-tracking <on|off>", "open tracking by default")
    .option("--click-tracking <on|off>", "click tracking by default")
    .option("--unsubscribe-tracking <on|off>", "unsubscribe link and List-Unsubscribe headers by default")
    .option("--inbound <on|off>", "receive mail for its addresses (routed by Mailgun routes, SendGrid Inbound Parse, SparkPost relay webhooks)")
    .option("--limit <N/M>", "at most N messages per M (hour, day, month or a duration such as 12h); 0/month removes it")
    .option("--zone <zone>", "only the domain's own zone: a domain's data stays in its zone, moving it is refused")
    .option("--pool <pool>", "the egress pool ([mta.pools]) its mail goes out through unless a message names one; \"\" for the default pool")
    .option("--tracking-host <host>", "the host of its links and pixels (default email.NAME; \"\" for the default), used once it resolves here")
    .action(action(async (ctx, name: string, o: Record<string, string | undefined>) => {
      const app = await ctx.app();
      // Checked first: a refused host leaves the other settings as they were.
      if (o.trackingHost !== undefined) await app.trackingHosts.set(name, o.trackingHost);
      const d = await app.domains.set(name, {
        validation: onOff(o.validation, "--validation"), botDetection: onOff(o.botDetection, "--bot-detection"),
        openTracking: onOff(o.openTracking, "--open-tracking"), clickTracking: onOff(o.clickTracking, "--click-tracking"),
        unsubscribeTracking: onOff(o.unsubscribeTracking, "--unsubscribe-tracking"), inbound: onOff(o.inbound, "--inbound"), limit: o.limit,
        zone: o.zone, pool: o.pool,
      });
      ctx.out.print(domainJson(d), () => `updated ${d.name}`);
    }));

  domain.command("disable <name>").description("stop sending for a domain (keys stay)").action(action(async (ctx, name: string) => {
    const d = await (await ctx.app()).domains.disable(name);
    ctx.out.print(domainJson(d), () => `${d.name}: disabled`);
  }));

  domain.command("delete <name>").description("delete a domain, its keys, credentials and webhooks").action(action(async (ctx, name: string) => {
    await (await ctx.app()).domains.remove(name);
    ctx.out.print({ deleted: name }, () => `deleted ${name}`);
  }));

  registerDomainDkim(domain);
}
