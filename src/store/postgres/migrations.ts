// Ordered, append-only schema migrations of the PostgreSQL engine, embedded in the binary. Never
// edit a shipped entry: add a new one. Each schema records what it applied in schema_migrations
// (db.ts migrate). The first entries are the SQLite schema as it stood when this engine was
// written; timestamps are BIGINT milliseconds, JSON is TEXT (written and read as the SQLite engine does).
import { DOCTOR_CONTROL_MIGRATIONS } from "./migrations-doctor.ts";
import { DANE_CONTROL_MIGRATIONS } from "./migrations-dane.ts";

import { ALERTS_CONTROL_MIGRATIONS } from "./migrations-alerts.ts";

import { TRACKING_CONTROL_MIGRATIONS } from "./migrations-tracking.ts";
import { TEAM_CONTROL_MIGRATIONS } from "./migrations-team.ts";
import { DKIM2_CONTROL_MIGRATIONS } from "./migrations-dkim2.ts";
import { SCHED2_ZONE_MIGRATIONS } from "./migrations-sched2.ts";
import { TENANTS_CONTROL_MIGRATIONS } from "./migrations-tenants.ts";
import { TENSCOPE_CONTROL_MIGRATIONS } from "./migrations-tenscope.ts";
import { TENSMTP_CONTROL_MIGRATIONS } from "./migrations-tensmtp.ts";
import { OIDC2_CONTROL_MIGRATIONS } from "./migrations-oidc2.ts";
import { TLSRPT_CONTROL_MIGRATIONS } from "./migrations-tlsrpt.ts";
import { TENAUDIT_CONTROL_MIGRATIONS } from "./migrations-tenaudit.ts";
import { RARE_EVENTS_ZONE_MIGRATIONS } from "./migrations-rare-events.ts";
import { CALLBACKS_ZONE_MIGRATIONS } from "./migrations-callbacks.ts";
export const CONTROL_SCHEMA = "control";
export const zoneSchema = (zone: string) => `zone_${zone}`;

export const CONTROL_MIGRATIONS: string[] = [
  `CREATE TABLE account (
     id INTEGER PRIMARY KEY, webhook_signing_key TEXT NOT NULL, secret TEXT NOT NULL, created_at BIGINT NOT NULL,
     event_webhook_private_key TEXT NOT NULL DEFAULT '', event_webhook_public_key TEXT NOT NULL DEFAULT '');
   CREATE TABLE domains (
     id SERIAL PRIMARY KEY, name TEXT NOT NULL UNIQUE, zone TEXT NOT NULL,
     state TEXT NOT NULL DEFAULT 'unverified', wildcard BOOLEAN NOT NULL DEFAULT false,
     dkim_selector TEXT NOT NULL, validation BOOLEAN NOT NULL DEFAULT false, bot_detection BOOLEAN NOT NULL DEFAULT false,
     open_tracking BOOLEAN NOT NULL DEFAULT false, click_tracking BOOLEAN NOT NULL DEFAULT false,
     unsubscribe_tracking BOOLEAN NOT NULL DEFAULT false, inbound BOOLEAN NOT NULL DEFAULT false,
     limit_max INTEGER NOT NULL DEFAULT 0, limit_window TEXT NOT NULL DEFAULT 'month',
     webhook_signing_key TEXT NOT NULL DEFAULT '', created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL);
   CREATE TABLE dkim_keys (
     domain_id INTEGER NOT NULL REFERENCES domains(id) ON DELETE CASCADE, selector TEXT NOT NULL,
     algorithm TEXT NOT NULL, private_key TEXT NOT NULL, public_key TEXT NOT NULL, PRIMARY KEY (domain_id, algorithm));
   CREATE TABLE api_keys (
     id TEXT PRIMARY KEY, kind TEXT NOT NULL, domain_id INTEGER REFERENCES domains(id) ON DELETE CASCADE,
     label TEXT NOT NULL DEFAULT '', hash TEXT NOT NULL, grants TEXT NOT NULL DEFAULT '[]',
     created_at BIGINT NOT NULL, last_used_at BIGINT, revoked_at BIGINT);
   CREATE TABLE smtp_credentials (
     domain_id INTEGER NOT NULL REFERENCES domains(id) ON DELETE CASCADE, login TEXT NOT NULL,
     hash TEXT NOT NULL, created_at BIGINT NOT NULL, PRIMARY KEY (domain_id, login));
   CREATE TABLE webhooks (
     id TEXT PRIMARY KEY, domain_id INTEGER REFERENCES domains(id) ON DELETE CASCADE, events TEXT NOT NULL,
     url TEXT NOT NULL, format TEXT NOT NULL, extra TEXT NOT NULL DEFAULT '{}', created_at BIGINT NOT NULL);
   CREATE TABLE inbound_rules (
     id TEXT NOT NULL, kind TEXT NOT NULL, domain_id INTEGER REFERENCES domains(id) ON DELETE CASCADE,
     spec TEXT NOT NULL, created_at BIGINT NOT NULL, PRIMARY KEY (kind, id));
   CREATE TABLE templates (
     pk SERIAL PRIMARY KEY, id TEXT NOT NULL, scope INTEGER NOT NULL,
     domain_id INTEGER REFERENCES domains(id) ON DELETE CASCADE, name TEXT NOT NULL, description TEXT NOT NULL DEFAULT '',
     generation TEXT NOT NULL DEFAULT 'dynamic', extra TEXT NOT NULL DEFAULT '{}',
     created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, UNIQUE (scope, id));
   CREATE TABLE template_versions (
     template_pk INTEGER NOT NULL REFERENCES templates(pk) ON DELETE CASCADE, id TEXT NOT NULL,
     name TEXT NOT NULL DEFAULT '', subject TEXT, html TEXT, text TEXT, active BOOLEAN NOT NULL DEFAULT false,
     extra TEXT NOT NULL DEFAULT '{}', created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, seq BIGSERIAL,
     PRIMARY KEY (template_pk, id));
   CREATE TABLE lists (
     pk SERIAL PRIMARY KEY, kind TEXT NOT NULL, id TEXT NOT NULL, scope INTEGER NOT NULL,
     domain_id INTEGER REFERENCES domains(id) ON DELETE CASCADE, name TEXT NOT NULL DEFAULT '',
     description TEXT NOT NULL DEFAULT '', extra TEXT NOT NULL DEFAULT '{}',
     created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, UNIQUE (kind, scope, id));
   CREATE TABLE list_members (
     list_pk INTEGER NOT NULL REFERENCES lists(pk) ON DELETE CASCADE, address TEXT NOT NULL,
     name TEXT NOT NULL DEFAULT '', vars TEXT NOT NULL DEFAULT '{}', subscribed BOOLEAN NOT NULL DEFAULT true,
     extra TEXT NOT NULL DEFAULT '{}', seq BIGINT NOT NULL, PRIMARY KEY (list_pk, address));
   CREATE TABLE console_sessions (
     token_hash TEXT PRIMARY KEY, key_id TEXT NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
     csrf TEXT NOT NULL, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL);
   CREATE INDEX console_sessions_expiry ON console_sessions(expires_at);`,
  // Unsubscribe groups (SendGrid ASM; their entries live in each zone's suppressions as type
  // group:<id>) and scheduled-send batches with their hold (pause / cancel).
  `CREATE TABLE unsubscribe_groups (
     id SERIAL PRIMARY KEY, domain_id INTEGER REFERENCES domains(id) ON DELETE CASCADE,
     name TEXT NOT NULL, description TEXT NOT NULL DEFAULT '', is_default BOOLEAN NOT NULL DEFAULT false, created_at BIGINT NOT NULL);
   CREATE TABLE send_batches (
     id TEXT PRIMARY KEY, domain_id INTEGER REFERENCES domains(id) ON DELETE CASCADE, hold TEXT,
     created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL);`,
  // The node registry: every node serving from this control data, its heartbeat and clean stop.
  `CREATE TABLE nodes (
     node_id TEXT PRIMARY KEY, zone TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL,
     started_at BIGINT NOT NULL, last_seen_at BIGINT NOT NULL, stopped_at BIGINT);`,
  // Lists and inbound rules are stored under neutral kinds, not the vendor whose API made them:
  // Mailgun's mailing lists are address lists, SparkPost's recipient lists recipient lists; Mailgun
  // routes, SendGrid parse settings, SparkPost inbound domains and relay webhooks are route,
  // parse-setting, inbound-domain and relay-webhook.
  `UPDATE lists SET kind = CASE kind WHEN 'mailgun' THEN 'address-list' WHEN 'sparkpost' THEN 'recipient-list' ELSE kind END;
   UPDATE inbound_rules SET kind = CASE kind WHEN 'mailgun-route' THEN 'route' WHEN 'sendgrid-parse' THEN 'parse-setting'
     WHEN 'sparkpost-inbound-domain' THEN 'inbound-domain' WHEN 'sparkpost-relay-webhook' THEN 'relay-webhook' ELSE kind END;`,
  // Egress (docs/egress.md): sends per source per UTC hour, for the warm-up caps; a domain's pool.
  `CREATE TABLE egress_sends (source TEXT NOT NULL, hour BIGINT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (source, hour));
   ALTER TABLE domains ADD COLUMN pool TEXT NOT NULL DEFAULT '';`,
  // A change counter for the cached domain read (core/domain-read.ts): every statement that writes
  // domains or webhook targets bumps it in its own transaction, so a reader sees the new count exactly with the rows.
  `CREATE TABLE control_changes (one BOOLEAN PRIMARY KEY DEFAULT true CHECK (one), n BIGINT NOT NULL);
   CREATE FUNCTION bump_control_changes() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
     BEGIN INSERT INTO control_changes (one, n) VALUES (true, 1) ON CONFLICT (one) DO UPDATE SET n = control_changes.n + 1;
     RETURN NULL; END $$;
   CREATE TRIGGER domains_changed AFTER INSERT OR UPDATE OR DELETE ON domains
     FOR EACH STATEMENT EXECUTE FUNCTION bump_control_changes();
   CREATE TRIGGER webhooks_changed AFTER INSERT OR UPDATE OR DELETE ON webhooks
     FOR EACH STATEMENT EXECUTE FUNCTION bump_control_changes();`,
  // TLS state shared by every node (src/tls): the ACME account key, the certificate and its key,
  // and open HTTP-01 answers (any node may receive the CA's request), by name.
  `CREATE TABLE tls_items (name TEXT PRIMARY KEY, content TEXT NOT NULL, updated_at BIGINT NOT NULL);`,
  ...ALERTS_CONTROL_MIGRATIONS,
  ...TRACKING_CONTROL_MIGRATIONS,
  ...TEAM_CONTROL_MIGRATIONS,
  ...DOCTOR_CONTROL_MIGRATIONS,
  ...DKIM2_CONTROL_MIGRATIONS,
  ...DANE_CONTROL_MIGRATIONS,
  ...TENANTS_CONTROL_MIGRATIONS,
  ...TENSCOPE_CONTROL_MIGRATIONS,
  ...TENSMTP_CONTROL_MIGRATIONS,
  ...OIDC2_CONTROL_MIGRATIONS,
  ...TLSRPT_CONTROL_MIGRATIONS,
  ...TENAUDIT_CONTROL_MIGRATIONS,
];

export const ZONE_MIGRATIONS: string[] = [
  // `seq` columns keep insertion order (SQLite's rowid). Events get theirs from event_counter, a
  // row every event-writing transaction updates last: its row lock orders those transactions, so
  // position order is commit order and a reader's cursor never passes an uncommitted event.
  `CREATE TABLE messages (
     id TEXT PRIMARY KEY, send_id TEXT NOT NULL, domain TEXT NOT NULL, message_id_header TEXT NOT NULL,
     mail_from TEXT NOT NULL, subject TEXT NOT NULL, content TEXT, raw BYTEA, tags TEXT NOT NULL,
     metadata TEXT NOT NULL, callback_url TEXT, source TEXT NOT NULL, is_test BOOLEAN NOT NULL,
     size INTEGER NOT NULL, created_at BIGINT NOT NULL, extra TEXT NOT NULL DEFAULT '{}', seq BIGSERIAL);
   CREATE INDEX messages_domain_created ON messages(domain, created_at);
   CREATE INDEX messages_send ON messages(send_id, seq);
   CREATE TABLE attachments (
     send_id TEXT NOT NULL, idx INTEGER NOT NULL, filename TEXT NOT NULL, content_type TEXT NOT NULL,
     content_id TEXT, disposition TEXT NOT NULL, data BYTEA NOT NULL, PRIMARY KEY (send_id, idx));
   CREATE TABLE recipients (
     id TEXT PRIMARY KEY, message_id TEXT NOT NULL, email TEXT NOT NULL, rcpt_domain TEXT NOT NULL,
     kind TEXT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at BIGINT NOT NULL, first_attempt_at BIGINT, expires_at BIGINT NOT NULL,
     last_code INTEGER, last_response TEXT, mx TEXT, updated_at BIGINT NOT NULL,
     owner TEXT, seq BIGSERIAL);
   CREATE INDEX recipients_message ON recipients(message_id, seq);
   CREATE INDEX recipients_due ON recipients(next_attempt_at) WHERE status IN ('queued', 'deferred');
   CREATE INDEX recipients_owner ON recipients(owner) WHERE owner IS NOT NULL;
   CREATE TABLE events (
     id TEXT PRIMARY KEY, seq BIGINT NOT NULL UNIQUE, type TEXT NOT NULL, message_id TEXT NOT NULL, recipient TEXT NOT NULL,
     domain TEXT NOT NULL, ts BIGINT NOT NULL, data TEXT NOT NULL);
   CREATE INDEX events_domain_ts ON events(domain, ts);
   CREATE INDEX events_message ON events(message_id);
   CREATE TABLE event_counter (one BOOLEAN PRIMARY KEY DEFAULT true CHECK (one), value BIGINT NOT NULL);
   INSERT INTO event_counter (value) VALUES (0);
   CREATE TABLE suppressions (
     domain TEXT NOT NULL, type TEXT NOT NULL, address TEXT NOT NULL, reason TEXT NOT NULL DEFAULT '',
     code TEXT NOT NULL DEFAULT '', scope TEXT, created_at BIGINT NOT NULL, PRIMARY KEY (domain, type, address));
   CREATE INDEX suppressions_address ON suppressions(domain, address);
   CREATE INDEX suppressions_by_address ON suppressions(address, type);
   CREATE TABLE outbox (
     id TEXT PRIMARY KEY, url TEXT NOT NULL, format TEXT NOT NULL, target_id TEXT, domain TEXT NOT NULL,
     payload TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at BIGINT NOT NULL,
     status TEXT NOT NULL DEFAULT 'pending', last_error TEXT, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, owner TEXT);
   CREATE INDEX outbox_due ON outbox(next_attempt_at) WHERE status = 'pending';
   CREATE INDEX outbox_url_pending ON outbox(url, next_attempt_at) WHERE status = 'pending';
   CREATE TABLE cursors (name TEXT PRIMARY KEY, value BIGINT NOT NULL);
   CREATE TABLE bot_results (
     domain TEXT NOT NULL, request_id TEXT NOT NULL, body TEXT NOT NULL, created_at BIGINT NOT NULL,
     PRIMARY KEY (domain, request_id));
   CREATE INDEX bot_results_created ON bot_results(created_at);
   CREATE TABLE inbound_messages (
     id TEXT PRIMARY KEY, domain TEXT NOT NULL, storage_key TEXT NOT NULL UNIQUE, envelope TEXT NOT NULL,
     raw BYTEA NOT NULL, size INTEGER NOT NULL, received_at BIGINT NOT NULL, expires_at BIGINT NOT NULL);
   CREATE INDEX inbound_messages_expiry ON inbound_messages(expires_at);
   CREATE TABLE tag_info (
     domain TEXT NOT NULL, tag TEXT NOT NULL, description TEXT NOT NULL DEFAULT '', deleted_at BIGINT NOT NULL DEFAULT 0,
     PRIMARY KEY (domain, tag));`,
  // Received message bodies streamed in pieces before the message row names them (bounded memory
  // per SMTP connection, readable by every node of the zone); inbound_messages.raw then holds only
  // the trace headers put in front.
  `CREATE TABLE inbound_bodies (
     body_id TEXT NOT NULL, seq INTEGER NOT NULL, data BYTEA NOT NULL, created_at BIGINT NOT NULL, PRIMARY KEY (body_id, seq));
   CREATE INDEX inbound_bodies_created ON inbound_bodies(created_at);
   ALTER TABLE inbound_messages ADD COLUMN body_id TEXT;
   CREATE INDEX inbound_messages_body ON inbound_messages(body_id);`,
  // postern's own failures lose Mailgun's codes in stored events (as the SQLite engine's migration
  // of the same name): 605 suppress-* → reason "suppressed" and its list, 605 cancelled → reason
  // "cancelled", 650 → testMode; in pending webhook items too.
  `UPDATE events SET data = (${neutralReasonsPg("data::jsonb", "type")})::text WHERE data::jsonb->>'code' IN ('605', '650');
   UPDATE outbox SET payload = (SELECT jsonb_agg(CASE WHEN jsonb_typeof(el->'event') = 'object'
       THEN jsonb_set(el, '{event}', ${neutralReasonsPg("(el->'event')", "(el->'event'->>'type')")}) ELSE el END ORDER BY ord)
     FROM jsonb_array_elements(outbox.payload::jsonb) WITH ORDINALITY AS t(el, ord))::text
   WHERE status = 'pending' AND payload LIKE '[%' AND (payload LIKE '%605%' OR payload LIKE '%650%');`,
  // Bot-detection memory shared by the nodes of the zone (it lived in each process): honeypot
  // visitors until they expire, and recent interactions per message for the click patterns. Keys
  // are hashes of the visitor, message and link.
  `CREATE TABLE bot_honeypot (visitor TEXT PRIMARY KEY, expires_at BIGINT NOT NULL);
   CREATE INDEX bot_honeypot_expires ON bot_honeypot(expires_at);
   CREATE TABLE bot_interactions (message_key TEXT NOT NULL, at BIGINT NOT NULL, link TEXT NOT NULL);
   CREATE INDEX bot_interactions_message ON bot_interactions(message_key, at);
   CREATE INDEX bot_interactions_at ON bot_interactions(at);`,
  // Accepted sends write their events without a position and position them after their commit
  // (events.ts), so a synchronous commit never holds the event counter while it waits for the disk.
  `ALTER TABLE events ALTER COLUMN seq DROP NOT NULL;
   CREATE INDEX events_unpositioned ON events(ts, id) WHERE seq IS NULL;`,
  // Receivers' reports (DMARC aggregate, TLS-RPT): as the SQLite engine's.
  `CREATE TABLE receiver_reports (
     kind TEXT NOT NULL, org TEXT NOT NULL, report_id TEXT NOT NULL, domain TEXT NOT NULL,
     begin_at BIGINT NOT NULL, end_at BIGINT NOT NULL, received_at BIGINT NOT NULL, body TEXT NOT NULL,
     PRIMARY KEY (kind, org, report_id));
   CREATE INDEX receiver_reports_domain ON receiver_reports (domain, kind, end_at);`,
  // Retention: events it deletes are first counted here per domain, hour, type and tag ('' = every
  // event), so the counts stats read outlive the events (store-port.ts RetentionStore).
  `CREATE TABLE event_rollups (
     domain TEXT NOT NULL, bucket BIGINT NOT NULL, tag TEXT NOT NULL, type TEXT NOT NULL, n BIGINT NOT NULL,
     PRIMARY KEY (domain, bucket, tag, type));`,
  // The queue by destination key (#29): a claim starts at a recipient domain whose destination has
  // room and reads only the due rows it takes; the scheduler publishes its destinations' state.
  // Its predicate in lower(): see PENDING in destinations.ts.
  `CREATE INDEX recipients_key_due ON recipients(rcpt_domain, next_attempt_at) WHERE lower(status) IN ('queued', 'deferred');
   CREATE TABLE destination_state (name text NOT NULL, owner text NOT NULL, snapshot jsonb NOT NULL, updated_at bigint NOT NULL,
     PRIMARY KEY (name, owner));`,
  // Bot memory across messages (#33): as the SQLite engine's.
  `CREATE TABLE bot_opened (message_key TEXT PRIMARY KEY, at BIGINT NOT NULL);
   CREATE INDEX bot_opened_at ON bot_opened(at);
   CREATE TABLE bot_spread (visitor TEXT NOT NULL, at BIGINT NOT NULL, recipient TEXT NOT NULL, domain TEXT NOT NULL, unopened BOOLEAN NOT NULL);
   CREATE INDEX bot_spread_visitor ON bot_spread(visitor, at);
   CREATE INDEX bot_spread_at ON bot_spread(at);`,
  // Egress (docs/egress.md): the local address a recipient's last attempt went out from, and its pool.
  `ALTER TABLE recipients ADD COLUMN source_ip TEXT;
   ALTER TABLE recipients ADD COLUMN ip_pool TEXT;`,
  // The vendor stats' rollups (core/stats/rollup.ts): as the SQLite engine's.
  `CREATE TABLE stat_rollups (
     domain TEXT NOT NULL, bucket BIGINT NOT NULL, tag TEXT NOT NULL, rcpt_domain TEXT NOT NULL, campaign TEXT NOT NULL,
     template TEXT NOT NULL, ip_pool TEXT NOT NULL, stat TEXT NOT NULL, n BIGINT NOT NULL, bytes BIGINT NOT NULL,
     PRIMARY KEY (domain, bucket, tag, rcpt_domain, campaign, template, ip_pool, stat));
   CREATE INDEX stat_rollups_bucket ON stat_rollups (bucket);`,
  ...SCHED2_ZONE_MIGRATIONS,
  ...RARE_EVENTS_ZONE_MIGRATIONS,
  ...CALLBACKS_ZONE_MIGRATIONS,
];

/** The event `ev` (a jsonb expression, of type `type`) without the vendor codes 605 / 650. */
function neutralReasonsPg(ev: string, type: string): string {
  const list = `CASE WHEN ${ev}->>'reason' = 'suppress-unsubscribe' OR ${ev}->>'description' LIKE '%previously unsubscribed%' THEN 'unsubscribes'
    WHEN ${ev}->>'reason' = 'suppress-complaint' OR ${ev}->>'description' LIKE '%previously complained%' THEN 'complaints' ELSE 'bounces' END`;
  return `CASE
    WHEN ${type} = 'failed' AND ${ev}->>'code' = '605' AND ${ev}->>'reason' = 'cancelled' THEN ${ev} - 'code'
    WHEN ${type} = 'failed' AND ${ev}->>'code' = '605'
      THEN (${ev} - 'code' - 'description') || jsonb_build_object('reason', 'suppressed', 'suppressedBy', ${list})
    WHEN ${type} = 'delivered' AND ${ev}->>'code' = '650' THEN (${ev} - 'code') || '{"testMode": true}'::jsonb
    ELSE ${ev} END`;
}
