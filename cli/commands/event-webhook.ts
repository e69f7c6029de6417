// `postern event-webhook show|set`: SendGrid's Event Webhook (the settings /v3/user/webhooks/event/settings
// reads and writes) for one domain, or account-wide without --domain: the primary's, or with
// --tenant a tenant's own (what on-behalf-of reaches, docs/tenants.md).
import type { Command } from "commander";
import { action, type CliContext } from "../context.ts";
import { UsageError } from "../output.ts";
import { createEventWebhookSettings, SG_EVENT_SWITCHES, type EventWebhookSettings, type SettingsPatch, type SgEventSwitch } from "../../src/webhooks/formats/sendgrid-settings.ts";

async function scope(ctx: CliContext, domain: string | undefined, tenantRef: string | undefined) {
  const app = await ctx.app();
  const settings = createEventWebhookSettings({ webhooks: app.webhooks });
  if (domain && tenantRef !== undefined) throw new UsageError("give --domain or --tenant, not both (a domain's webhook is its tenant's)");
  // Account-wide: the tenant's (default the primary, 0); a domain's belongs to the domain's tenant.
  if (!domain) return { settings, where: { domainId: null, tenantId: tenantRef === undefined ? 0 : (await app.tenants.require(tenantRef)).id } };
  const d = await app.domains.get(domain);
  if (!d) throw new UsageError(`no domain ${domain}`);
  return { settings, where: { domainId: d.id, tenantId: d.tenantId ?? 0 } };
}
const TENANT_HELP = "the tenant (id or name) whose account-wide webhook (default: 0, the primary; docs/tenants.md)";

const shown = (s: EventWebhookSettings, publicKey: string) => ({ enabled: s.enabled, url: s.url, events: s.types, signed: s.signed, public_key: publicKey });

function readEvents(list: string): SgEventSwitch[] {
  const names = list === "all" ? [...SG_EVENT_SWITCHES] : list.split(",").map((x) => x.trim()).filter(Boolean);
  const unknown = names.find((n) => !(SG_EVENT_SWITCHES as readonly string[]).includes(n));
  if (unknown) throw new UsageError(`unknown event "${unknown}"; known: ${SG_EVENT_SWITCHES.join(", ")}, all`);
  return names as SgEventSwitch[];
}

export function registerEventWebhook(program: Command) {
  const cmd = program.command("event-webhook").description("SendGrid's Event Webhook: where a domain's events are posted without a callback_url");

  cmd.command("show").description("the Event Webhook settings").option("--domain <name>", "the domain (else the account-wide webhook)")
    .option("--tenant <tenant>", TENANT_HELP)
    .action(action(async (ctx, o: { domain?: string; tenant?: string }) => {
      const { settings, where } = await scope(ctx, o.domain, o.tenant);
      const data = shown((await settings.get(where)).settings, (await ctx.app()).events.publicKey);
      ctx.out.print(data, () => Object.entries(data).map(([k, v]) => `${k.padEnd(10)} ${Array.isArray(v) ? v.join(",") : v}`).join("\n"));
    }));

  cmd.command("set").description("change the Event Webhook settings")
    .option("--domain <name>", "the domain (else the account-wide webhook)")
    .option("--tenant <tenant>", TENANT_HELP)
    .option("--url <url>", "where events are posted (empty: remove the webhook)")
    .option("--enable", "post events").option("--disable", "stop posting events")
    .option("--events <list>", `comma-separated: ${SG_EVENT_SWITCHES.join(",")} or all`)
    .option("--signed <on|off>", "keep the signed-webhook switch (posts are always signed)")
    .action(action(async (ctx, o: { domain?: string; tenant?: string; url?: string; enable?: boolean; disable?: boolean; events?: string; signed?: string }) => {
      if (o.enable && o.disable) throw new UsageError("give at most one of --enable or --disable");
      if (o.signed !== undefined && o.signed !== "on" && o.signed !== "off") throw new UsageError("--signed takes on or off");
      if (o.url && !/^https?:\/\/\S+$/i.test(o.url)) throw new UsageError("--url must be an http or https URL");
      const { settings, where } = await scope(ctx, o.domain, o.tenant);
      const patch: SettingsPatch = {
        ...(o.url !== undefined && { url: o.url }), ...(o.enable && { enabled: true }), ...(o.disable && { enabled: false }),
        ...(o.events !== undefined && { types: readEvents(o.events) }), ...(o.signed !== undefined && { signed: o.signed === "on" }),
      };
      const current = (await settings.get(where)).settings;
      if ((patch.enabled ?? current.enabled) && !(patch.url ?? current.url)) throw new UsageError("--url is required to enable the Event Webhook");
      const data = shown((await settings.update(where, patch)).settings, (await ctx.app()).events.publicKey);
      ctx.out.print(data, () => `event webhook ${data.enabled ? "enabled" : "disabled"}${data.url ? `: ${data.url}` : ""} (${data.events.join(",") || "no events"})`);
    }));
}
