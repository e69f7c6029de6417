// Receivers' tables that go-sisimai has and rb-sisimai 5.1.0 does not (go-sisimai rhost/lib.go
// RhostClass and rhost/for-{outlook,aol,messagelabs,gsuite}.go, commit ed142de, BSD 2-clause,
// Copyright (c) 2020-2025, azumakuniyuki and sisimai development team), transcribed as data: the
// host suffixes that pick each table and its phrases per sisimai reason (matched case-sensitively,
// as go-sisimai's ContainsAny does). GSuite's networkerror is only read on a temporary failure
// and its hostunknown only on a permanent one (for-gsuite.go).

export interface MoreTable { hosts: string[]; messages: Record<string, string[]>; temporaryOnly?: string[]; permanentOnly?: string[] }

export const MORE_RHOST: Record<string, MoreTable> = {
  Outlook: {
    hosts: [".hotmail.com"],
    messages: {
      hostunknown: ["The mail could not be delivered to the recipient because the domain is not reachable"],
      userunknown: ["Requested action not taken: mailbox unavailable"],
    },
  },
  Aol: {
    hosts: [".mail.aol.com", ".mx.aol.com"],
    messages: { hostunknown: ["Host or domain name not found"], notaccept: ["type=MX: Malformed or unexpected name server reply"] },
  },
  MessageLabs: {
    hosts: [".messagelabs.com"],
    messages: { securityerror: ["Please turn on SMTP Authentication in your mail client"], userunknown: ["542 ", " Rejected", "No such user"] },
  },
  GSuite: {
    hosts: ["googlemail.com"],
    messages: {
      hostunknown: [" responded with code NXDOMAIN", "Domain name not found"],
      networkerror: [" had no relevant answers.", "responded with code NXDOMAIN", "Domain name not found"],
      notaccept: ["Null MX"],
      userunknown: ["because the address couldn't be found. Check for typos or unnecessary spaces and try again."],
    },
    temporaryOnly: ["networkerror"],
    permanentOnly: ["hostunknown"],
  },
};

/** Host suffixes go-sisimai adds to rb-sisimai's tables (rhost/lib.go). */
export const MORE_HOSTS: Record<string, string[]> = { Microsoft: [".onmicrosoft.com", ".exchangelabs.com"] };
