// Phrases that say a refusal is about our traffic (our sender, our HELO name, our IP on a blocklist, relaying, a
// policy, too many bad addresses), not about the address it names; and a blocklist's error answer, which is neither.
// patterns.ts ranks them among its decisive rules; classify.ts and stated.ts let them outrank address statuses. Pure.

/** Our sender refused in words: classify.ts also lets it outrank the address status sisimai's table reads into 5.1.0.
 *  Our sender's domain said not to exist is about our sender too, not the recipient's domain (qmail-smtpd "sorry,
 *  your envelope sender domain must exist"; the receivers' texts in KumoMTA's assets/community/bounces.toml:
 *  "Sender Domain Resolve Fail", "Domain of sender address x does not exist", "Sender x has no A, AAAA, or MX DNS records";
 *  Coremail's "Fake sender", "host denies the sender"; AT&T's published block_enduser page, "550 [permfail] bellsouth.net
 *  requires valid sender domain"; Haraka's "550 No MX for your FROM address", "Null MX: x does not send mail", "That sender
 *  cannot send mail here"; hMailServer's "Sender domain does not have any MX records."; rspamd's mx_check on our sender's
 *  domain, "Domain published RFC 7505 Null MX"; Sendmail's cf rulesets "Domain name required for sender address" and FEATURE
 *  badmx's "Illegal MX record for host"; qmail's chkuser "can't find a valid MX for sender domain"; Debian's Exim ACLs
 *  "Sender verification failed", "No verifiable sender address in message headers"; ASPone's published "550 5.1.1 <x>
 *  sender is blacklisted", a recipient's own list matching our sender whatever its 5.1.1 says; Exim's callout "Sender verify
 *  failed", whatever "No Such User Here" it quotes of our sender; a Chinese host's published "553 Invalid sender"; Postfix's
 *  "Sender address rejected:" is about MAIL FROM whatever follows, "mailbox disabled" included). */
export const SENDER_REFUSED =
  /\bsender denied\b|\binvalid sender\b|\bsender verify failed\b|\bsender address rejected\b|mail originating from (that|this|your) domain is not (welcome|accepted)|invalid dns mx or a\/aaaa resource record|\bsender was rejected\b|\bfake sender\b|denies the sender|sender (address )?domain (must exist|does not exist|not found|resolve fail)|domain of sender address \S* ?does not exist|\bsender \S* ?has no (a, aaaa,? or mx|a or mx|mx) (dns )?records|requires (a )?valid sender domain|without a valid sender domain|no mx for your (envelope )?from address|sender domain does not have any mx|\bdoes not send (e-?)?mail\b|\bsender cannot send mail|domain published rfc ?7505 null mx|domain name required for sender address|illegal mx record for host|valid mx for (the )?sender domain|sender verification failed|no verifiable sender address|\bsender (address |domain )?(is )?(black|block)listed\b/i;

/** A refusal that names policy as its reason (GMX, postmaster.gmx.net error messages: "554 Transaction failed Reject
 *  due to policy restrictions") is a verdict on our mail: a block, where sisimai's lists read "transaction failed" as
 *  the receiver's own system error. Under a 4xx too ("421 Reject due to policy violations": a German host's published
 *  reply for a sending IP it bars; Zoho's "452 ... Mailbox delivery restricted by policy error"), where the code alone
 *  would say only "try later". Forpsi (konto.pl) says it in
 *  Polish: "550 5.1.0 Naruszenie zasad" (its help page: a policy violation, the account blocked for spam). */
export const POLICY_REFUSAL = /\b(reject(ed)?|refused|denied|blocked|not accepted|restricted)\s+(due to|for|by|because of|per)\s+((local|our|security|organi[sz]ational|content)\s+)?polic(y|ies)\b|\bnaruszenie zasad\b/i;

/** Our HELO name refused (mox "your ehlo domain does not resolve to an IP address", Stalwart "Invalid EHLO domain.",
 *  Apache James "Provided EHLO/HELO x can not resolved.", Haraka's helo.checks "HELO host name invalid", "Invalid address
 *  format in HELO", "HELO is dynamic", "HELO host has no forward DNS match"; hMailServer "The host name specified in HELO
 *  does not match IP address."; their sources). Servers that delay their refusals send these at RCPT: still our host. */
export const HELO_REFUSED =
  /\b(e?hlo|helo)\b[^;:]{0,50}?\b(invalid|dynamic|(does not|doesn't) match|no forward dns|(does not|doesn't) resolve|(can ?not|could not) (be )?resolved?)|\binvalid\b[^.;:]{0,30}\b(e?hlo|helo)\b/i;

/** Our IP named as listed on a blocklist ("Your IP address x is blacklisted using SPAMHAUS-XBL", Postfix's "Client host
 *  [x] blocked using zen.spamhaus.org", "listed by Invaluement"; ZoneMTA's config/bounces.txt examples): a spam block,
 *  even behind words that alone would mean an unknown mailbox ("550 5.2.1 Mailbox unavailable. Your IP address ...");
 *  Aruba's PEC help "Indirizzo IP bloccato temporaneamente per sospetto abuso"; a reply that is a blocklist's lookup page
 *  for our IP (GoDaddy's "553 http://www.spamhaus.org/query/bl?ip=x", sisimai's GoDaddy table: blocked), not a domain list's. */
export const LISTED_SOURCE =
  /\b(black|block|deny)listed (using|by|at|on|in)\b|\bblocked using\b(?! [\w.-]*(dbl|uribl|surbl))|\blisted (at|on|in|by) (?![\w.-]*(dbl|uribl|surbl))[\w.-]*(spamhaus|spamcop|sorbs|barracuda|uceprotect|invaluement|abuseat|mailspike|psbl)|\byour ip( address)? \S+ (is |has been )?(black|block)?listed\b|\bindirizzo ip bloccato\b|\b(spamhaus\.org\/(query\/(bl|ip)|lookup|sbl|xbl|pbl)|spamcop\.net\/(bl\.shtml|w3m)|barracudacentral\.org\/(lookups|rbl)|sorbs\.net\/lookup|abuseat\.org\/lookup)\b/i;

/** Refused for having sent to too many bad addresses: a verdict on our traffic, not on this address (Cox "too many
 *  invalid recipients", sisimai lib/sisimai/rhost/cox.rb: blocked; ZoneMTA config/bounces.txt: defer, not recipient; qmail's
 *  chkuser "sorry, you are violating our security policies (#5.1.1 - chkuser)", sent when a session passed its limit of
 *  bad recipients; MailChannels' "[BR] ... excessively high number of invalid recipients originating from your account"). */
export const TOO_MANY_BAD_RECIPIENTS =
  /too many (invalid|bad|unknown|illegal|nonexistent) (recipients|rcpts|addresses|users)|excessive (userid|user) unknowns|violating our security policies|(excessively |unusually )?high (number|amount|rate) of (invalid|unknown|bad) recipients|excessive unknown recipients/i;

/** Relaying refused: our MX choice or their configuration, not the address (SparkPost class 54). classify.ts lets it
 *  outrank sisimai's status table too, which reads Stalwart's "550 5.1.2 Relay not allowed." as an unknown host. */
export const RELAY_REFUSED =
  /relay(ing)? (access )?(denied|not (permitted|allowed))|(unable|not permitted|not allowed) to relay|we do not relay|(isn't|not) in my list of allowed rcpthosts|relaying (is )?(disallowed|prohibited)|no relaying|relay not allowed|mailing to remote domains not supported|authentication (is )?required for relay|attr36|5\.7\.64/i;

/** A blocklist's error answer, not a listing: Spamhaus answers a query sent through a public resolver with an error
 *  code (its return codes page, spamhaus.org/returnc/pub: "open resolver", "excessive number of queries", "typing error
 *  in DNSBL name"), and a receiver that takes any answer as a listing refuses everyone. The receiver's fault, soft. */
export const DNSBL_ERROR = /spamhaus\.org\/returnc\b|\berror: (open|public) resolver\b|excessive number of queries|typing error in dnsbl name/i;
