// GET /webhooks/events/samples: one example event per requested SparkPost type, in the batch
// shape of SparkPost webhooks ({"msys":{"<category>":{…}}}). Values are fixed examples; real
// batches are built from stored events (sparkpost-event.ts).
const CATEGORY: Record<string, string> = {
  injection: "message_event", delivery: "message_event", bounce: "message_event", delay: "message_event",
  policy_rejection: "message_event", out_of_band: "message_event", spam_complaint: "message_event",
  open: "track_event", initial_open: "track_event", amp_open: "track_event", amp_initial_open: "track_event", click: "track_event",
  amp_click: "track_event", generation_failure: "gen_event", generation_rejection: "gen_event",
  list_unsubscribe: "unsubscribe_event", link_unsubscribe: "unsubscribe_event",
};

const COMMON = {
  event_id: "92356927693813856", timestamp: "1700000000", customer_id: "1", subaccount_id: "0", message_id: "000443ee14578172be22",
  transmission_id: "65832150921904138", campaign_id: "welcome", rcpt_to: "user@example.com", raw_rcpt_to: "user@example.com",
  recipient_domain: "example.com", rcpt_meta: { user_id: "42" }, rcpt_tags: ["signup"], friendly_from: "App <no-reply@example.org>",
  subject: "Welcome", injection_time: "2023-11-14T22:13:08.000Z",
};

const EXTRA: Record<string, Record<string, unknown>> = {
  delivery: { delv_method: "esmtp", ip_address: "198.51.100.7", queue_time: "12", num_retries: "0" },
  bounce: { bounce_class: "10", error_code: "550", reason: "550 5.1.1 no such user", raw_reason: "550 5.1.1 no such user" },
  delay: { bounce_class: "21", error_code: "451", reason: "451 4.7.1 try later", num_retries: "1" },
  click: { target_link_url: "https://example.org/x", target_link_name: "cta", user_agent: "Mozilla/5.0", ip_address: "198.51.100.9" },
  open: { user_agent: "Mozilla/5.0", ip_address: "198.51.100.9" },
  spam_complaint: { fbtype: "abuse", report_by: "isp.example", report_to: "fbl.example.org" },
};

/** Sample batch for `types` (every type postern emits when none are named). */
export function sampleBatch(types: string[] | undefined) {
  const wanted = (types?.length ? types : Object.keys(CATEGORY)).filter((t) => t in CATEGORY);
  return wanted.map((type) => ({ msys: { [CATEGORY[type]!]: { type, ...COMMON, ...(EXTRA[type] ?? {}) } } }));
}
