// Control migrations of issue #42 (outbound DANE, TLS-RPT as a sender), spread at the end of CONTROL_MIGRATIONS.
export const DANE_CONTROL_MIGRATIONS: string[] = [
  // TLS-RPT (RFC 8460): outbound sessions per UTC day, policy domain, policy type, MX host and result.
  `CREATE TABLE tls_sessions (day INTEGER NOT NULL, policy_domain TEXT NOT NULL, policy_type TEXT NOT NULL, mx_host TEXT NOT NULL,
     result TEXT NOT NULL, n BIGINT NOT NULL, PRIMARY KEY (day, policy_domain, policy_type, mx_host, result));`,
];
