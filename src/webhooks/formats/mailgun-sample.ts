// The example event a Mailgun-wire receiver gets for a webhook type (Mailgun's event-data shape),
// used by the Mailgun and native formats' samples and the check POST made at webhook creation.
const STATUS_BY_TYPE: Record<string, [number, string, string]> = {
  permanent_fail: [550, "Not delivering to a mailbox that does not exist", "550 5.1.1 The email account that you tried to reach does not exist"],
  temporary_fail: [451, "Greylisted, will retry", "451 4.7.1 Please try again later"],
};

function deliveryStatus(type: string) {
  const [code, description, reply] = STATUS_BY_TYPE[type] ?? [250, "", "250 2.0.0 OK"];
  return { code, description, message: [reply], "mx-host": "mx.example.net", "mx-ip": "192.0.2.25", tls: true };
}

/** One example event of webhook type `type` for `domain`. */
export function sampleEventData(type: string, domain: string, nowMs: number) {
  const timestamp = Math.floor(nowMs / 1000);
  const recipient = "alice@example.org";
  // As real events: both failure webhooks carry event "failed" and tell them apart by severity.
  const failure = type === "permanent_fail" ? "permanent" : type === "temporary_fail" ? "temporary" : null;
  return {
    event: failure ? "failed" : type, ...(failure ? { severity: failure } : {}), id: `sample-${type}-${timestamp}`, timestamp,
    "delivery-status": deliveryStatus(type),
    envelope: { sender: `bob@${domain}`, "sending-ip": "192.0.2.10", targets: recipient, transport: "smtp" },
    message: {
      headers: { date: new Date(nowMs).toUTCString(), from: `Bob <bob@${domain}>`, subject: "Test webhook sample", to: `Alice <${recipient}>`,
        "x-mailer": "postern", "x-testid": `sample-${timestamp}`, "message-id": `sample.${timestamp}@${domain}` },
      size: 1024,
    },
    recipient, "recipient-domain": "example.org", tags: ["sample"], "user-variables": {},
    flags: { "is-test-mode": false, "is-system-test": true },
    ...(type === "clicked" ? { url: "https://example.org/welcome" } : {}),
  };
}
