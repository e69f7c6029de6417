// Control migrations of the tlsrpt branch, spread at the end of CONTROL_MIGRATIONS.
export const TLSRPT_CONTROL_MIGRATIONS: string[] = [
  // TLS-RPT failure details name the sending and receiving IP, and a policy its policy-string (RFC
  // 8460 §4.3; its lines joined by newlines): all three join the key ('' when unknown).
  `ALTER TABLE tls_sessions ADD COLUMN sending_ip TEXT NOT NULL DEFAULT '', ADD COLUMN receiving_ip TEXT NOT NULL DEFAULT '',
     ADD COLUMN policy_string TEXT NOT NULL DEFAULT '';
   ALTER TABLE tls_sessions DROP CONSTRAINT tls_sessions_pkey;
   ALTER TABLE tls_sessions ADD PRIMARY KEY (day, policy_domain, policy_type, mx_host, result, sending_ip, receiving_ip, policy_string);`,
];
