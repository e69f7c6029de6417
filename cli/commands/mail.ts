// `postern send` (one message through the same send service the APIs use), `postern queue …`
// (the outbound queue) and `postern suppress …` (the suppression lists).
import type { Command } from "commander";
import { readFileSync } from "node:fs";
import type { Principal } from "../../src/core/model.ts";
import { parseAddress } from "../../src/core/address/address.ts";
import { notFound } from "../../src/core/errors.ts";
import { createQueueAdmin } from "../../src/mta/queue/admin.ts";
import { ACCOUNT_ID } from "../../src/core/account.ts";
import { action, type CliContext } from "../context.ts";
import { isoTime, table, UsageError } from "../output.ts";
import { intOption } from "./insight.ts";

const IMPORT_BATCH = 1_000;

function address(text: string) {
  const p = parseAddress(text);
  if (!p) throw new UsageError(`"${text}" is not an email address`);
  return { email: p.email, ...(p.name ? { name: p.name } : {}) };
}

const admin = async (ctx: CliContext) => { const app = await ctx.app(); return createQueueAdmin({ store: app.store, recorder: app.recorder, now: app.now, shaping: app.mta.shaping, routes: app.config.mta.routes }); };

export function registerMail(program: Command) {
  program.command("send").description("send one message through the normal pipeline (queue, DKIM, delivery)")
    .requiredOption("--from <address>", "sender (its domain must be an active domain)")
    .requiredOption("--to <address...>", "recipients")
    .requiredOption("--subject <subject>", "subject")
    .option("--text <text>", "text body").option("--html <html>", "HTML body")
    .action(action(async (ctx, o: { from: string; to: string[]; subject: string; text?: string; html?: string }) => {
      if (!o.text && !o.html) throw new UsageError("give --text or --html");
      const app = await ctx.app();
      const from = address(o.from);
      const domain = (await app.domains.forSender(from.email))?.name ?? from.email.slice(from.email.lastIndexOf("@") + 1).toLowerCase();
      const principal: Principal = { accountId: ACCOUNT_ID, keyId: "cli", kind: "account", domain: null, grants: [] };
      const r = await app.sender.send(principal, { domain, from, source: "cli", envelopes: [{ to: o.to.map(address), subject: o.subject, text: o.text, html: o.html }] });
      ctx.out.print({ id: r.id, message_id: r.messages[0]?.messageIdHeader, accepted: r.accepted, rejected: r.rejected },
        () => `queued ${r.id} ${r.messages[0]?.messageIdHeader} (${r.accepted} recipient(s)${r.rejected.length ? `, ${r.rejected.length} suppressed` : ""})`);
    }));

  const queue = program.command("queue").description("the outbound queue");
  queue.command("stats").description("counts by state and the busiest destinations").action(action(async (ctx) => {
    const zones = await (await admin(ctx)).stats();
    ctx.out.print(zones, () => Object.entries(zones).map(([z, s]) => `${z}: queued ${s.queued}, deferred ${s.deferred}, due ${s.due}, delivered ${s.delivered}, failed ${s.failed}` +
      (s.byDomain.length ? `\n  ${s.byDomain.map((d) => `${d.domain} ${d.count}`).join(", ")}` : "")).join("\n"));
  }));
  queue.command("destinations").description("each destination: waiting, in flight, concurrency now and at most, suspension, last throttle reply, TLS policy per MX (dane, mta-sts, opportunistic)")
    .action(action(async (ctx) => {
      const destinations = await (await admin(ctx)).destinations();
      ctx.out.print({ destinations }, () => table(destinations.map((d) => ({ ...d, provider: d.provider ?? "", suspended_until: d.suspended_until ?? "",
        last_throttle: d.last_throttle ?? "", mx: d.mx.map((m) => `${m.host}:${m.tls_policy}`).join(" ") })),
      ["name", "provider", "waiting", "in_flight", "concurrency", "max_concurrency", "suspended_until", "last_throttle", "mx"]));
    }));
  queue.command("list").description("recipients waiting for delivery").option("--limit <n>", "at most n rows", "100")
    .action(action(async (ctx, o: { limit: string }) => {
      const limit = intOption(o.limit, "--limit", 1, 100_000);
      const rows = (await (await admin(ctx)).list(limit))
        .map((r) => ({ id: r.id, message: r.messageId, recipient: r.email, status: r.status, attempts: r.attempts,
          next_attempt: isoTime(r.nextAttemptAt), last_response: r.lastResponse }));
      ctx.out.print(rows, () => table(rows, ["id", "message", "recipient", "status", "attempts", "next_attempt", "last_response"]));
    }));
  queue.command("retry <id>").description("retry a recipient (or every recipient of a message) now").action(action(async (ctx, id: string) => {
    const n = await (await admin(ctx)).retry(id);
    if (!n) throw notFound(`nothing waiting in the queue with id ${id}`);
    ctx.out.print({ retried: n }, () => `${n} recipient(s) due now`);
  }));
  queue.command("purge").description("fail every queued and deferred recipient").action(action(async (ctx) => {
    const n = await (await admin(ctx)).purge();
    ctx.out.print({ purged: n }, () => `purged ${n} recipient(s)`);
  }));

  registerSuppress(program);
}

function registerSuppress(program: Command) {
  const sup = program.command("suppress").description("suppression lists: bounces, unsubscribes, complaints, whitelists");
  const common = (c: Command, isListing = false) => c.requiredOption("--domain <domain>", "the domain")
    .option("--type <type>", `bounces | unsubscribes | complaints | whitelists${isListing ? " (default: every list)" : ""}`, isListing ? undefined : "bounces");
  common(sup.command("add <address...>").description("add addresses").option("--reason <text>", "why"))
    .action(action(async (ctx, addresses: string[], o: { domain: string; type: string; reason?: string }) => {
      const n = await (await ctx.app()).suppressions.add(o.domain, o.type, addresses.map((address) => ({ address, reason: o.reason ?? "added by the administrator" })));
      ctx.out.print({ added: n }, () => `added ${n} to ${o.type} of ${o.domain}`);
    }));
  common(sup.command("list").description("list entries").option("--limit <n>", "at most n entries", "1000"), true)
    .action(action(async (ctx, o: { domain: string; type?: string; limit: string }) => {
      const rows = (await (await ctx.app()).suppressions.list(o.domain, { type: o.type, limit: intOption(o.limit, "--limit", 1, 1_000_000) }))
        .map((s) => ({ address: s.address, type: s.type, reason: s.reason, created_at: isoTime(s.createdAt) }));
      ctx.out.print(rows, () => table(rows, ["address", "type", "reason", "created_at"]));
    }));
  common(sup.command("remove <address>").description("remove an address"))
    .action(action(async (ctx, address: string, o: { domain: string; type: string }) => {
      const n = await (await ctx.app()).suppressions.remove(o.domain, o.type, address);
      if (!n) throw notFound(`${address} is not on ${o.type} of ${o.domain}`);
      ctx.out.print({ removed: n }, () => `removed ${address}`);
    }));
  common(sup.command("import <file>").description("import addresses from a file (one per line, or CSV with the address first)"))
    .action(action(async (ctx, file: string, o: { domain: string; type: string }) => importFile(ctx, file, o)));
}

async function importFile(ctx: CliContext, file: string, o: { domain: string; type: string }) {
  const app = await ctx.app();
  const lines = readFileSync(file, "utf8").split(/\r?\n/).map((l) => l.split(",")[0]!.trim().replace(/^"|"$/g, "")).filter((l) => l.includes("@"));
  let done = 0;
  for (let i = 0; i < lines.length; i += IMPORT_BATCH) {
    done += await app.suppressions.add(o.domain, o.type, lines.slice(i, i + IMPORT_BATCH).map((address) => ({ address, reason: "imported" })));
    if (!ctx.out.json) process.stderr.write(`\rimported ${done}/${lines.length}`);
  }
  if (!ctx.out.json && lines.length) process.stderr.write("\n");
  ctx.out.print({ imported: done }, () => `imported ${done} address(es) into ${o.type} of ${o.domain}`);
}
