// Local parts that name a function rather than a person (RFC 2142 mailbox names plus the common
// business ones). Compared after lower-casing and dropping `+tag`, `.`, `-` and `_`, so "no-reply"
// and "no_reply" both match "noreply". Source: RFC 2142 and the role list of the
// `role-based-email-addresses` npm package (trimmed to the frequent entries).

export const ROLE_LOCAL_PARTS: readonly string[] = [
  // RFC 2142
  "abuse", "hostmaster", "info", "marketing", "noc", "postmaster", "sales", "security", "support",
  "usenet", "news", "uucp", "webmaster", "www", "ftp",
  // Administration and IT
  "admin", "administrator", "root", "sysadmin", "it", "helpdesk", "dns", "mail", "mailerdaemon",
  "devnull", "nobody", "undisclosedrecipients", "dev", "devops", "ops", "tech", "webadmin",
  // Do-not-reply
  "noreply", "donotreply", "notreply", "noresponse", "bounce", "bounces", "notifications",
  "notification", "alerts", "alert", "newsletter", "newsletters", "mailer",
  // Business functions
  "accounts", "accounting", "billing", "finance", "invoices", "invoice", "payments", "payroll",
  "contact", "contactus", "enquiries", "enquiry", "inquiries", "hello", "hi", "office", "team",
  "staff", "all", "everyone", "help", "service", "services", "customerservice", "customercare",
  "feedback", "orders", "order", "shop", "store", "purchasing", "procurement", "hr", "jobs",
  "careers", "recruiting", "recruitment", "legal", "compliance", "privacy", "press", "media", "pr",
  "partners", "reception", "investors", "ir", "management", "board", "registrar", "list",
  "listserv", "majordomo", "subscribe", "unsubscribe", "remove", "spam", "test", "testing",
];
