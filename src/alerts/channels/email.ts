// The e-mail channel: alert mail goes out through postern itself (the core send service, so it is
// queued, signed and retried like any mail) to [alerts] email and the rule's own addresses. It is
// sent as postern@<domain>, the domain being the active one that mta.hostname is (or lies under),
// else the first active domain; with no active domain there is nobody to send as and it is logged.
import type { Logger } from "../../log.ts";
import type { Domain, SendRequest } from "../../core/model.ts";
import type { AlertChannel, AlertNotice } from "../notice.ts";
import { shown, summaryOf } from "../notice.ts";
import type { Rule } from "../rules.ts";

export interface EmailChannelDeps {
  to: string[];
  mtaHostname: string;
  domains: () => Promise<Domain[]>;
  /** The send service, as the account. */
  send: (req: SendRequest) => Promise<unknown>;
  log: Logger;
}

/** The domain alert mail is sent as (see the header). */
export function alertSenderDomain(domains: readonly Domain[], mtaHostname: string): Domain | null {
  const active = domains.filter((d) => d.state === "active").sort((a, b) => a.id - b.id);
  const host = mtaHostname.toLowerCase();
  const under = active.filter((d) => host === d.name || host.endsWith(`.${d.name}`)).sort((a, b) => b.name.length - a.name.length);
  return under[0] ?? active[0] ?? null;
}

function textOf(n: AlertNotice, rule: Rule): string {
  return [summaryOf(n, rule), "", `alert:     ${n.id}`, `rule:      ${n.rule}`, `state:     ${n.state}`, `subject:   ${n.subject}`,
    `value:     ${shown(rule, n.value)}`, `threshold: ${shown(rule, n.threshold)}`, `at:        ${n.at}`, "",
    "Open alerts: postern alerts list, or the console's Alerts page. See docs/alerts.md."].join("\n");
}

export function createEmailChannel(deps: EmailChannelDeps): AlertChannel {
  return {
    async deliver(notice: AlertNotice, rule: Rule) {
      const to = [...new Set([...deps.to, ...rule.emails].map((a) => a.trim()).filter(Boolean))];
      if (!to.length) return;
      const domain = alertSenderDomain(await deps.domains(), deps.mtaHostname);
      if (!domain) {
        deps.log.warn("alert mail not sent: no active domain to send it as", { alert: notice.id, to });
        return;
      }
      try {
        await deps.send({ domain: domain.name, from: { email: `postern@${domain.name}`, name: "postern alerts" }, source: "alerts",
          isTransactional: true, tags: ["postern-alert"], tracking: { opens: false, clicks: false, unsubscribe: false },
          envelopes: to.map((email) => ({ to: [{ email }], subject: `[postern] ${summaryOf(notice, rule)}`, text: textOf(notice, rule) })) });
      } catch (e) {
        deps.log.warn("alert mail not sent", { alert: notice.id, error: e instanceof Error ? e.message : String(e) });
      }
    },
  };
}
