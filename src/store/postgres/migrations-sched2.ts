// Recipients counted without reading them (#41): /metrics, /healthz, `postern queue` and the
// console counted with COUNT(*) over recipients, a walk of every waiting row (1,000,000 scheduled
// through send_at included) on each scrape. Statement-level triggers append one delta row per
// (status, key) a statement changes; readers fold the deltas into recipient_counts
// (postgres/queue-counts.ts). Deltas, not an UPDATE of a shared row: an UPDATE would hold that
// row's lock until commit, serializing every accept and outcome of a key across nodes, and two
// transactions locking two keys' rows in turn could deadlock; an INSERT locks nothing shared.
const delta = (sign: string, rows: string) => `SELECT status, rcpt_domain, ${sign}COUNT(*) FROM ${rows} GROUP BY status, rcpt_domain`;

export const SCHED2_ZONE_MIGRATIONS: string[] = [
  `CREATE TABLE recipient_count_deltas (status TEXT NOT NULL, rcpt_domain TEXT NOT NULL, n BIGINT NOT NULL);
   CREATE TABLE recipient_counts (status TEXT NOT NULL, rcpt_domain TEXT NOT NULL, n BIGINT NOT NULL, PRIMARY KEY (status, rcpt_domain));
   INSERT INTO recipient_counts ${delta("", "recipients")};
   CREATE FUNCTION recipients_counted_insert() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$ BEGIN
     INSERT INTO recipient_count_deltas ${delta("", "new_rows")}; RETURN NULL; END $$;
   CREATE FUNCTION recipients_counted_delete() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$ BEGIN
     INSERT INTO recipient_count_deltas ${delta("-", "old_rows")}; RETURN NULL; END $$;
   CREATE FUNCTION recipients_counted_update() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$ BEGIN
     INSERT INTO recipient_count_deltas SELECT status, rcpt_domain, SUM(n) FROM (
       SELECT status, rcpt_domain, 1 AS n FROM new_rows UNION ALL SELECT status, rcpt_domain, -1 FROM old_rows) c
       GROUP BY status, rcpt_domain HAVING SUM(n) <> 0;
     RETURN NULL; END $$;
   CREATE TRIGGER recipients_counted_insert AFTER INSERT ON recipients REFERENCING NEW TABLE AS new_rows
     FOR EACH STATEMENT EXECUTE FUNCTION recipients_counted_insert();
   CREATE TRIGGER recipients_counted_delete AFTER DELETE ON recipients REFERENCING OLD TABLE AS old_rows
     FOR EACH STATEMENT EXECUTE FUNCTION recipients_counted_delete();
   CREATE TRIGGER recipients_counted_update AFTER UPDATE ON recipients REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
     FOR EACH STATEMENT EXECUTE FUNCTION recipients_counted_update();`,
];
