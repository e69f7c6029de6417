// Ordered, append-only schema migrations, embedded in the binary. Never edit a shipped entry:
// add a new one. `user_version` records how many have been applied.
import { DOCTOR_CONTROL_MIGRATIONS } from "./migrations-doctor.ts";
import { DANE_CONTROL_MIGRATIONS } from "./migrations-dane.ts";

import { ALERTS_CONTROL_MIGRATIONS } from "./migrations-alerts.ts";

import { TRACKING_CONTROL_MIGRATIONS } from "./migrations-tracking.ts";
import { TEAM_CONTROL_MIGRATIONS } from "./migrations-team.ts";
import { DKIM2_CONTROL_MIGRATIONS } from "./migrations-dkim2.ts";
import { TENANTS_CONTROL_MIGRATIONS } from "./migrations-tenants.ts";
import { TENSCOPE_CONTROL_MIGRATIONS } from "./migrations-tenscope.ts";
import { TENSMTP_CONTROL_MIGRATIONS } from "./migrations-tensmtp.ts";
import { OIDC2_CONTROL_MIGRATIONS } from "./migrations-oidc2.ts";
import { TLSRPT_CONTROL_MIGRATIONS } from "./migrations-tlsrpt.ts";
import { RARE_EVENTS_ZONE_MIGRATIONS } from "./migrations-rare-events.ts";
import { CALLBACKS_ZONE_MIGRATIONS } from "./migrations-callbacks.ts";
export const CONTROL_MIGRATIONS: string[] = [
  `CREATE TABLE account (
     id INTEGER PRIMARY KEY, webhook_signing_key TEXT NOT NULL, secret TEXT NOT NULL, created_at INTEGER NOT NULL);
   CREATE TABLE domains (
     id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, zone TEXT NOT NULL,
     state TEXT NOT NULL DEFAULT 'unverified', wildcard INTEGER NOT NULL DEFAULT 0,
     dkim_selector TEXT NOT NULL, validation INTEGER NOT NULL DEFAULT 0, bot_detection INTEGER NOT NULL DEFAULT 0,
     open_tracking INTEGER NOT NULL DEFAULT 0, click_tracking INTEGER NOT NULL DEFAULT 0,
     unsubscribe_tracking INTEGER NOT NULL DEFAULT 0, limit_max INTEGER NOT NULL DEFAULT 0,
     limit_window TEXT NOT NULL DEFAULT 'month', created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
   CREATE TABLE dkim_keys (
     domain_id INTEGER NOT NULL REFERENCES domains(id) ON DELETE CASCADE, selector TEXT NOT NULL,
     algorithm TEXT NOT NULL, private_key TEXT NOT NULL, public_key TEXT NOT NULL,
     PRIMARY KEY (domain_id, algorithm));
   CREATE TABLE api_keys (
     id TEXT PRIMARY KEY, kind TEXT NOT NULL, domain_id INTEGER REFERENCES domains(id) ON DELETE CASCADE,
     label TEXT NOT NULL DEFAULT '', hash TEXT NOT NULL, grants TEXT NOT NULL DEFAULT '[]',
     created_at INTEGER NOT NULL, last_used_at INTEGER, revoked_at INTEGER);
   CREATE TABLE smtp_credentials (
     domain_id INTEGER NOT NULL REFERENCES domains(id) ON DELETE CASCADE, login TEXT NOT NULL,
     hash TEXT NOT NULL, created_at INTEGER NOT NULL, PRIMARY KEY (domain_id, login));
   CREATE TABLE webhooks (
     id TEXT PRIMARY KEY, domain_id INTEGER REFERENCES domains(id) ON DELETE CASCADE, events TEXT NOT NULL,
     url TEXT NOT NULL, format TEXT NOT NULL, extra TEXT NOT NULL DEFAULT '{}', created_at INTEGER NOT NULL);`,
  // The ECDSA P-256 pair that signs SendGrid-format event webhooks (the public key is published).
  `ALTER TABLE account ADD COLUMN event_webhook_private_key TEXT NOT NULL DEFAULT '';
   ALTER TABLE account ADD COLUMN event_webhook_public_key TEXT NOT NULL DEFAULT '';`,
  // Inbound mail: which domains receive, and the routing rules of every vendor API (Mailgun routes,
  // SendGrid Inbound Parse settings, SparkPost inbound domains and relay webhooks) as JSON specs.
  `ALTER TABLE domains ADD COLUMN inbound INTEGER NOT NULL DEFAULT 0;
   CREATE TABLE inbound_rules (
     id TEXT NOT NULL, kind TEXT NOT NULL, domain_id INTEGER REFERENCES domains(id) ON DELETE CASCADE,
     spec TEXT NOT NULL, created_at INTEGER NOT NULL, PRIMARY KEY (kind, id));`,
  // Stored templates and their versions (one active), and stored lists (Mailgun mailing lists,
  // SparkPost recipient lists) with their members. `scope` is the owning domain's id, or 0 for
  // account-wide rows: a NOT NULL column, so the unique keys hold for account-wide rows too.
  `CREATE TABLE templates (
     pk INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL, scope INTEGER NOT NULL,
     domain_id INTEGER REFERENCES domains(id) ON DELETE CASCADE, name TEXT NOT NULL, description TEXT NOT NULL DEFAULT '',
     generation TEXT NOT NULL DEFAULT 'dynamic', extra TEXT NOT NULL DEFAULT '{}',
     created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, UNIQUE (scope, id));
   CREATE TABLE template_versions (
     template_pk INTEGER NOT NULL REFERENCES templates(pk) ON DELETE CASCADE, id TEXT NOT NULL,
     name TEXT NOT NULL DEFAULT '', subject TEXT, html TEXT, text TEXT, active INTEGER NOT NULL DEFAULT 0,
     extra TEXT NOT NULL DEFAULT '{}', created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
     PRIMARY KEY (template_pk, id));
   CREATE TABLE lists (
     pk INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, id TEXT NOT NULL, scope INTEGER NOT NULL,
     domain_id INTEGER REFERENCES domains(id) ON DELETE CASCADE, name TEXT NOT NULL DEFAULT '',
     description TEXT NOT NULL DEFAULT '', extra TEXT NOT NULL DEFAULT '{}',
     created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, UNIQUE (kind, scope, id));
   CREATE TABLE list_members (
     list_pk INTEGER NOT NULL REFERENCES lists(pk) ON DELETE CASCADE, address TEXT NOT NULL,
     name TEXT NOT NULL DEFAULT '', vars TEXT NOT NULL DEFAULT '{}', subscribed INTEGER NOT NULL DEFAULT 1,
     extra TEXT NOT NULL DEFAULT '{}', seq INTEGER NOT NULL, PRIMARY KEY (list_pk, address));`,
  // Each domain's own HMAC key for its webhooks (made on first use), so that one domain's signed
  // samples are not accepted by another domain's receivers.
  `ALTER TABLE domains ADD COLUMN webhook_signing_key TEXT NOT NULL DEFAULT '';`,
  // Web console sessions: the cookie's token is stored only as a hash; the session belongs to the
  // key that signed in (revoking the key or deleting its domain ends the session).
  `CREATE TABLE console_sessions (
     token_hash TEXT PRIMARY KEY, key_id TEXT NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
     csrf TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
   CREATE INDEX console_sessions_expiry ON console_sessions(expires_at);`,
  // Unsubscribe groups (SendGrid ASM; their entries live in each zone's suppressions as type
  // group:<id>) and scheduled-send batches with their hold (pause / cancel).
  `CREATE TABLE unsubscribe_groups (
     id INTEGER PRIMARY KEY AUTOINCREMENT, domain_id INTEGER REFERENCES domains(id) ON DELETE CASCADE,
     name TEXT NOT NULL, description TEXT NOT NULL DEFAULT '', is_default INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL);
   CREATE TABLE send_batches (
     id TEXT PRIMARY KEY, domain_id INTEGER REFERENCES domains(id) ON DELETE CASCADE, hold TEXT,
     created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);`,
  // The node registry: every node serving from this control data, its heartbeat and clean stop
  // (postern status lists the nodes of the zone and their claims).
  `CREATE TABLE nodes (
     node_id TEXT PRIMARY KEY, zone TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL,
     started_at INTEGER NOT NULL, last_seen_at INTEGER NOT NULL, stopped_at INTEGER);`,
  // Lists and inbound rules are stored under neutral kinds, not the vendor whose API made them:
  // Mailgun's mailing lists are address lists, SparkPost's recipient lists recipient lists; Mailgun
  // routes, SendGrid parse settings, SparkPost inbound domains and relay webhooks are route,
  // parse-setting, inbound-domain and relay-webhook.
  `UPDATE lists SET kind = CASE kind WHEN 'mailgun' THEN 'address-list' WHEN 'sparkpost' THEN 'recipient-list' ELSE kind END;
   UPDATE inbound_rules SET kind = CASE kind WHEN 'mailgun-route' THEN 'route' WHEN 'sendgrid-parse' THEN 'parse-setting'
     WHEN 'sparkpost-inbound-domain' THEN 'inbound-domain' WHEN 'sparkpost-relay-webhook' THEN 'relay-webhook' ELSE kind END;`,
  // Egress (docs/egress.md): sends per source per UTC hour, for the warm-up caps; a domain's pool.
  `CREATE TABLE egress_sends (source TEXT NOT NULL, hour INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (source, hour));
   ALTER TABLE domains ADD COLUMN pool TEXT NOT NULL DEFAULT '';`,
  // TLS state shared by nodes (src/tls): account key, certificate, HTTP-01 answers by name.
  `CREATE TABLE tls_items (name TEXT PRIMARY KEY, content TEXT NOT NULL, updated_at INTEGER NOT NULL);`,
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
];

export const ZONE_MIGRATIONS: string[] = [
  `CREATE TABLE messages (
     id TEXT PRIMARY KEY, send_id TEXT NOT NULL, domain TEXT NOT NULL, message_id_header TEXT NOT NULL,
     mail_from TEXT NOT NULL, subject TEXT NOT NULL, content TEXT, raw BLOB, tags TEXT NOT NULL,
     metadata TEXT NOT NULL, callback_url TEXT, source TEXT NOT NULL, is_test INTEGER NOT NULL,
     size INTEGER NOT NULL, created_at INTEGER NOT NULL);
   CREATE INDEX messages_domain_created ON messages(domain, created_at);
   CREATE TABLE attachments (
     send_id TEXT NOT NULL, idx INTEGER NOT NULL, filename TEXT NOT NULL, content_type TEXT NOT NULL,
     content_id TEXT, disposition TEXT NOT NULL, data BLOB NOT NULL, PRIMARY KEY (send_id, idx));
   CREATE TABLE recipients (
     id TEXT PRIMARY KEY, message_id TEXT NOT NULL, email TEXT NOT NULL, rcpt_domain TEXT NOT NULL,
     kind TEXT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL, first_attempt_at INTEGER, expires_at INTEGER NOT NULL,
     last_code INTEGER, last_response TEXT, mx TEXT, updated_at INTEGER NOT NULL);
   CREATE INDEX recipients_message ON recipients(message_id);
   CREATE INDEX recipients_due ON recipients(next_attempt_at) WHERE status IN ('queued', 'deferred');
   CREATE TABLE events (
     id TEXT PRIMARY KEY, type TEXT NOT NULL, message_id TEXT NOT NULL, recipient TEXT NOT NULL,
     domain TEXT NOT NULL, ts INTEGER NOT NULL, data TEXT NOT NULL);
   CREATE INDEX events_domain_ts ON events(domain, ts);
   CREATE INDEX events_message ON events(message_id);
   CREATE TABLE suppressions (
     domain TEXT NOT NULL, type TEXT NOT NULL, address TEXT NOT NULL, reason TEXT NOT NULL DEFAULT '',
     code TEXT NOT NULL DEFAULT '', scope TEXT, created_at INTEGER NOT NULL, PRIMARY KEY (domain, type, address));
   CREATE INDEX suppressions_address ON suppressions(domain, address);`,
  // Marks rows claimed by a delivery attempt, so a restarted server can take back its own leases
  // at once instead of waiting for them to run out.
  `ALTER TABLE recipients ADD COLUMN claimed INTEGER NOT NULL DEFAULT 0;`,
  // The webhook outbox: events fanned out to their targets (durable before any POST), and the
  // position in the events table up to which fan-out is done.
  `CREATE TABLE outbox (
     id TEXT PRIMARY KEY, url TEXT NOT NULL, format TEXT NOT NULL, target_id TEXT, domain TEXT NOT NULL,
     payload TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER NOT NULL,
     status TEXT NOT NULL DEFAULT 'pending', last_error TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
   CREATE INDEX outbox_due ON outbox(next_attempt_at) WHERE status = 'pending';
   CREATE TABLE cursors (name TEXT PRIMARY KEY, value INTEGER NOT NULL);`,
  // Validation asks "did this address bounce for anyone here?" without a domain.
  `CREATE INDEX suppressions_by_address ON suppressions(address, type);`,
  // Request-level facts of a send (campaign_id, batch_id, asm_group_id, ip_pool, description,
  // template_id) as JSON, and the index that reads a whole send (a SparkPost transmission) back.
  `ALTER TABLE messages ADD COLUMN extra TEXT NOT NULL DEFAULT '{}';
   CREATE INDEX messages_send ON messages(send_id);`,
  // Bot-detection results of the native bot API, per domain (another domain's key cannot read
  // them), kept an hour; they used to live in memory and die with the process.
  `CREATE TABLE bot_results (
     domain TEXT NOT NULL, request_id TEXT NOT NULL, body TEXT NOT NULL, created_at INTEGER NOT NULL,
     PRIMARY KEY (domain, request_id));
   CREATE INDEX bot_results_created ON bot_results(created_at);`,
  // Outbox rows claimed by a POST in flight, so a starting server takes them back at once (as the
  // mail queue does) instead of waiting out the lease.
  `ALTER TABLE outbox ADD COLUMN claimed INTEGER NOT NULL DEFAULT 0;`,
  // Received mail, durable before the 250 and kept until it expires (Mailgun's store(): three days).
  `CREATE TABLE inbound_messages (
     id TEXT PRIMARY KEY, domain TEXT NOT NULL, storage_key TEXT NOT NULL UNIQUE, envelope TEXT NOT NULL,
     raw BLOB NOT NULL, size INTEGER NOT NULL, received_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
   CREATE INDEX inbound_messages_expiry ON inbound_messages(expires_at);`,
  // Mailgun's tags API: a tag's description, and when it was deleted (events before that no
  // longer show it). The tags themselves are the ones events carry.
  `CREATE TABLE tag_info (
     domain TEXT NOT NULL, tag TEXT NOT NULL, description TEXT NOT NULL DEFAULT '', deleted_at INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (domain, tag));`,
  // A failed webhook target's pending items, read by URL: the probe and the catch-up when it answers again.
  `CREATE INDEX outbox_url_pending ON outbox(url, next_attempt_at) WHERE status = 'pending';`,
  // The event log's position: a sequence taken inside the writing transaction (one writer at a
  // time), so position order is commit order, never reused (a rowid may be, after deletes), and the
  // same notion as the PostgreSQL engine's. Existing events keep their rowid as position.
  `ALTER TABLE events ADD COLUMN seq INTEGER;
   UPDATE events SET seq = rowid;
   CREATE UNIQUE INDEX events_seq ON events(seq);`,
  // Received message bodies streamed in pieces before the message row names them (bounded memory
  // per SMTP connection); inbound_messages.raw then holds only the trace headers put in front.
  `CREATE TABLE inbound_bodies (
     body_id TEXT NOT NULL, seq INTEGER NOT NULL, data BLOB NOT NULL, created_at INTEGER NOT NULL, PRIMARY KEY (body_id, seq));
   CREATE INDEX inbound_bodies_created ON inbound_bodies(created_at);
   ALTER TABLE inbound_messages ADD COLUMN body_id TEXT;
   CREATE INDEX inbound_messages_body ON inbound_messages(body_id);`,
  // Claims carry their owner (the node id): a restarting node takes back only its own claims at
  // once; another node's wait for their lease (next_attempt_at) to end. Rows claimed before owners
  // existed have NULL and are taken back by whichever node starts first.
  `ALTER TABLE recipients ADD COLUMN claim_owner TEXT;
   ALTER TABLE outbox ADD COLUMN claim_owner TEXT;
   CREATE INDEX recipients_claimed ON recipients(claim_owner) WHERE claimed = 1;
   CREATE INDEX outbox_claimed ON outbox(claim_owner) WHERE claimed = 1;`,
  // postern's own failures lose Mailgun's codes in stored events: an accept-time drop of a
  // suppressed address (605 with suppress-* words) becomes reason "suppressed" and its list, a
  // cancelled send (605) keeps reason "cancelled", a test-mode delivery (650) gets testMode. Pending
  // webhook items carry events too. The surfaces report them as before (webhooks/formats/reported.ts).
  `UPDATE events SET data = ${neutralReasons("data", "$", "type")} WHERE json_extract(data, '$.code') IN (605, 650);
   UPDATE outbox SET payload = (SELECT json_group_array(json(${neutralReasons("value", "$.event", "json_extract(value, '$.event.type')")}))
     FROM json_each(outbox.payload))
   WHERE status = 'pending' AND json_valid(payload) AND json_type(payload, '$[0].event') = 'object'
     AND (payload LIKE '%605%' OR payload LIKE '%650%');`,
  // Bot-detection memory shared by the nodes of the zone (it lived in each process): honeypot
  // visitors until they expire, and recent interactions per message for the click patterns. Keys
  // are hashes of the visitor, message and link.
  `CREATE TABLE bot_honeypot (visitor TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
   CREATE INDEX bot_honeypot_expires ON bot_honeypot(expires_at);
   CREATE TABLE bot_interactions (message_key TEXT NOT NULL, at INTEGER NOT NULL, link TEXT NOT NULL);
   CREATE INDEX bot_interactions_message ON bot_interactions(message_key, at);
   CREATE INDEX bot_interactions_at ON bot_interactions(at);`,
  // Recipients per status, and pending (queued or deferred) recipients per destination domain, kept
  // by triggers for queueStats (/healthz, /metrics, `postern queue`): counting the rows each time
  // walked the whole table, 0.5-0.8 s on the event loop with 1,000,000 recipients queued.
  `CREATE TABLE recipient_counts (status TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
   CREATE TABLE pending_domains (domain TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
   INSERT INTO recipient_counts SELECT status, COUNT(*) FROM recipients GROUP BY status;
   INSERT INTO pending_domains SELECT rcpt_domain, COUNT(*) FROM recipients WHERE status IN ('queued', 'deferred') GROUP BY rcpt_domain;
   ${countTrigger("insert", "AFTER INSERT", ["NEW"])}
   ${countTrigger("update", "AFTER UPDATE OF status, rcpt_domain", ["OLD", "NEW"], "OLD.status IS NOT NEW.status OR OLD.rcpt_domain IS NOT NEW.rcpt_domain")}
   ${countTrigger("delete", "AFTER DELETE", ["OLD"])}`,
  // Receivers' reports (DMARC aggregate, TLS-RPT): one per reporter and report id, the parsed
  // report as JSON; read per domain and kind by the end of their period.
  `CREATE TABLE receiver_reports (
     kind TEXT NOT NULL, org TEXT NOT NULL, report_id TEXT NOT NULL, domain TEXT NOT NULL,
     begin_at INTEGER NOT NULL, end_at INTEGER NOT NULL, received_at INTEGER NOT NULL, body TEXT NOT NULL,
     PRIMARY KEY (kind, org, report_id));
   CREATE INDEX receiver_reports_domain ON receiver_reports (domain, kind, end_at);`,
  // Retention: events it deletes are first counted here per domain, hour, type and tag ('' = every
  // event), so the counts stats read outlive the events (store-port.ts RetentionStore).
  `CREATE TABLE event_rollups (
     domain TEXT NOT NULL, bucket INTEGER NOT NULL, tag TEXT NOT NULL, type TEXT NOT NULL, n INTEGER NOT NULL,
     PRIMARY KEY (domain, bucket, tag, type)) WITHOUT ROWID;`,
  // The queue by destination key (#29): a claim starts at a recipient domain whose destination has
  // room and reads only the due rows it takes; the scheduler publishes its destinations' state.
  `CREATE INDEX recipients_key_due ON recipients(rcpt_domain, next_attempt_at) WHERE status IN ('queued', 'deferred');
   CREATE TABLE destination_state (name TEXT NOT NULL, owner TEXT NOT NULL, snapshot TEXT NOT NULL, updated_at INTEGER NOT NULL,
     PRIMARY KEY (name, owner)) WITHOUT ROWID;`,
  // Bot memory across messages (#33): which messages had an open, and what each visitor clicked
  // (recipient and recipient domain, hashed) over the spread window, for the botnet signal.
  `CREATE TABLE bot_opened (message_key TEXT PRIMARY KEY, at INTEGER NOT NULL) WITHOUT ROWID;
   CREATE INDEX bot_opened_at ON bot_opened(at);
   CREATE TABLE bot_spread (visitor TEXT NOT NULL, at INTEGER NOT NULL, recipient TEXT NOT NULL, domain TEXT NOT NULL, unopened INTEGER NOT NULL);
   CREATE INDEX bot_spread_visitor ON bot_spread(visitor, at);
   CREATE INDEX bot_spread_at ON bot_spread(at);`,
  // Egress (docs/egress.md): the local address a recipient's last attempt went out from, and its pool.
  `ALTER TABLE recipients ADD COLUMN source_ip TEXT;
   ALTER TABLE recipients ADD COLUMN ip_pool TEXT;`,
  // The vendor stats' rollups (core/stats/rollup.ts): retention counts the events it deletes per
  // domain, hour, stat key and the dimensions reports group by, plus per tag ('' = every event);
  // account-wide reads (no domain) go by hour. Written by retention only, never on the accept path.
  `CREATE TABLE stat_rollups (
     domain TEXT NOT NULL, bucket INTEGER NOT NULL, tag TEXT NOT NULL, rcpt_domain TEXT NOT NULL, campaign TEXT NOT NULL,
     template TEXT NOT NULL, ip_pool TEXT NOT NULL, stat TEXT NOT NULL, n INTEGER NOT NULL, bytes INTEGER NOT NULL,
     PRIMARY KEY (domain, bucket, tag, rcpt_domain, campaign, template, ip_pool, stat)) WITHOUT ROWID;
   CREATE INDEX stat_rollups_bucket ON stat_rollups(bucket);`,
  // recipients_due (next_attempt_at over waiting rows) was rewritten on every claim and every
  // outcome (a fifth of the log's frames while delivering) and read only by queue listings, which
  // now go key by key through recipients_key_due (queue.ts).
  `DROP INDEX IF EXISTS recipients_due;`,
  ...RARE_EVENTS_ZONE_MIGRATIONS,
  ...CALLBACKS_ZONE_MIGRATIONS,
];

/** A trigger on recipients that takes OLD out of the counts and adds NEW to them. */
function countTrigger(name: string, event: string, rows: ("OLD" | "NEW")[], when?: string): string {
  const pending = (r: string) => `${r}.status IN ('queued', 'deferred')`;
  const body = rows.map((r) => r === "OLD"
    ? `UPDATE recipient_counts SET n = n - 1 WHERE status = OLD.status;
       UPDATE pending_domains SET n = n - 1 WHERE domain = OLD.rcpt_domain AND ${pending("OLD")};
       DELETE FROM pending_domains WHERE domain = OLD.rcpt_domain AND n <= 0;`
    : `INSERT INTO recipient_counts VALUES (NEW.status, 1) ON CONFLICT (status) DO UPDATE SET n = n + 1;
       INSERT INTO pending_domains SELECT NEW.rcpt_domain, 1 WHERE ${pending("NEW")} ON CONFLICT (domain) DO UPDATE SET n = n + 1;`).join("\n");
  return `CREATE TRIGGER recipients_count_${name} ${event} ON recipients ${when ? `WHEN ${when} ` : ""}BEGIN ${body} END;`;
}

/** The event JSON `j` (its event at path `p`, of type `type`) without the vendor codes 605 / 650. */
function neutralReasons(j: string, p: string, type: string): string {
  const x = (field: string) => `json_extract(${j}, '${p}.${field}')`;
  const list = `CASE WHEN ${x("reason")} = 'suppress-unsubscribe' OR ${x("description")} LIKE '%previously unsubscribed%' THEN 'unsubscribes'
    WHEN ${x("reason")} = 'suppress-complaint' OR ${x("description")} LIKE '%previously complained%' THEN 'complaints' ELSE 'bounces' END`;
  return `CASE
    WHEN ${type} = 'failed' AND ${x("code")} = 605 AND ${x("reason")} = 'cancelled' THEN json_remove(${j}, '${p}.code')
    WHEN ${type} = 'failed' AND ${x("code")} = 605
      THEN json_set(json_remove(${j}, '${p}.code', '${p}.description'), '${p}.reason', 'suppressed', '${p}.suppressedBy', ${list})
    WHEN ${type} = 'delivered' AND ${x("code")} = 650 THEN json_set(json_remove(${j}, '${p}.code'), '${p}.testMode', json('true'))
    ELSE ${j} END`;
}
