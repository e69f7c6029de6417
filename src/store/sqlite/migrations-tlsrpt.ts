// Control migrations of the tlsrpt branch, spread at the end of CONTROL_MIGRATIONS.
export const TLSRPT_CONTROL_MIGRATIONS: string[] = [
  // TLS-RPT failure details name the sending and receiving IP, and a policy its policy-string (RFC
  // 8460 §4.3; its lines joined by newlines): all three join the key ('' when unknown). SQLite
  // cannot change a primary key in place: the table is rebuilt, counts kept.
  `CREATE TABLE tls_sessions_ip (day INTEGER NOT NULL, policy_domain TEXT NOT NULL, policy_type TEXT NOT NULL, mx_host TEXT NOT NULL,
     result TEXT NOT NULL, sending_ip TEXT NOT NULL DEFAULT '', receiving_ip TEXT NOT NULL DEFAULT '',
     policy_string TEXT NOT NULL DEFAULT '', n INTEGER NOT NULL, PRIMARY KEY (day, policy_domain, policy_type, mx_host, result, sending_ip, receiving_ip, policy_string));
   INSERT INTO tls_sessions_ip (day, policy_domain, policy_type, mx_host, result, n) SELECT day, policy_domain, policy_type, mx_host, result, n FROM tls_sessions;
   DROP TABLE tls_sessions;
   ALTER TABLE tls_sessions_ip RENAME TO tls_sessions;`,
];
