// control.sqlite: outbound TLS sessions per UTC day, policy domain, type, MX host and result (TLS-RPT, RFC 8460).
import type { Database } from "bun:sqlite";
import type { TlsReportStore, TlsSessionCount } from "../../core/tls-report-port.ts";

const KEEP_DAYS = 7;

export function createTlsReportCounts(db: Database): TlsReportStore {
  const add = db.query(`INSERT INTO tls_sessions (day, policy_domain, policy_type, mx_host, result, sending_ip, receiving_ip, policy_string, n) VALUES (?1, ?2, ?3, ?4, ?5, ?7, ?8, ?9, ?6)
    ON CONFLICT (day, policy_domain, policy_type, mx_host, result, sending_ip, receiving_ip, policy_string) DO UPDATE SET n = n + ?6`);
  const prune = db.query("DELETE FROM tls_sessions WHERE day < ?");
  const ofDay = db.query(`SELECT policy_domain, policy_type, mx_host, result, sending_ip, receiving_ip, policy_string, n FROM tls_sessions WHERE day = ?
    ORDER BY policy_domain, policy_type, mx_host, result, sending_ip, receiving_ip, policy_string`);
  return {
    async addTlsSessions(day, counts) {
      db.transaction(() => {
        for (const c of counts) if (c.count > 0) add.run(day, c.policyDomain, c.policyType, c.mxHost, c.result, c.count, c.sendingIp ?? "", c.receivingIp ?? "", c.policyString?.join("\n") ?? "");
        prune.run(day - KEEP_DAYS);
      })();
    },
    async tlsSessions(day) {
      return (ofDay.all(day) as Record<string, string | number>[]).map(tlsSessionOf);
    },
  };
}

/** A stored row as a count: an empty IP or policy column is an unknown one. */
function tlsSessionOf(r: Record<string, unknown>): TlsSessionCount {
  return { policyDomain: String(r.policy_domain), policyType: r.policy_type as TlsSessionCount["policyType"], mxHost: String(r.mx_host), result: String(r.result),
    ...(r.sending_ip ? { sendingIp: String(r.sending_ip) } : {}), ...(r.receiving_ip ? { receivingIp: String(r.receiving_ip) } : {}),
    ...(r.policy_string ? { policyString: String(r.policy_string).split("\n") } : {}), count: Number(r.n) };
}
