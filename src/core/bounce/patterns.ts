// What the diagnostic text says, per provider and MTA, as a SparkPost bounce class. The enhanced
// code alone is too coarse (Exim sends 5.0.0, Microsoft 5.5.0 or 5.4.1 for unknown users, Apple
// 5.7.1 for policy), so the words decide first. Ordered: the first matching rule wins, so
// specific phrasings come before generic words ("blocked", "rejected", "spam").
import type { BounceClass } from "./classes.ts";
import { DNSBL_ERROR, HELO_REFUSED, LISTED_SOURCE, POLICY_REFUSAL, RELAY_REFUSED, SENDER_REFUSED, TOO_MANY_BAD_RECIPIENTS } from "./our-traffic.ts";

type Rule = readonly [RegExp, BounceClass];

/** Phrases that cannot mean anything else, checked before everything. */
const DECISIVE: Rule[] = [
  [DNSBL_ERROR, 40],
  // Challenge-response systems answering instead of delivering.
  [/challenge[- ]response|boxbe|spamarrest|mailblocks|choicemail|sanebox|verify (that )?you are (a )?human|confirm (that )?you are not a robot|sender verification (request|required)/i, 100],
  // Relaying refused: our MX choice or their configuration, not the address.
  [RELAY_REFUSED, 54],
  // Attachments and dangerous content.
  // AOL "...could not be delivered because they are not accepting mail with attachments or embedded images"; ezmlm-reject
  // "Sorry, I don't accept messages of MIME Content-Type 'text/html' (#5.2.3)", whatever its size code.
  [/not accepting (mail|messages|e-?mail) with attachments|illegal attachment|prohibited attachment|attachment (type )?(is )?(not allowed|blocked|rejected|forbidden|prohibited)|file (type|extension|name) (is )?(not allowed|blocked|prohibited|forbidden)|don't accept messages of mime content-type|banned (file|attachment|extension)|potential security issue|executable (file|attachment|content)|blocked extension/i, 53],
  // Greylisting is a deferral whatever words surround it ("Recipient address rejected: Greylisted").
  [/grey ?list|gray ?list|greylisted|graylisted|please come back later/i, 70],
  // Sending too fast is a rate limit, even when the words around it say "rejected".
  // Gmail "receiving mail at a rate that prevents additional messages" (5.2.1), GoDaddy "has sent to too many
  // recipients this hour" (IB607, with 5.1.1), Tencent's "550 Sender frequency limited" (its Exmail help): sisimai
  // reason "speeding", whatever the code says. Exchange Online's "550 5.1.90 ... you've reached your daily limit for message
  // recipients" is our sending account's limit (learn.microsoft.com, Exchange Online limits: 10,000 recipients a day).
  [/try again slower|slow down|sending too fast|too fast|too many (messages|mails)(?! (on|in) (the |this )?(server|mailbox|inbox))|too many connections|receiving mail at a rate|receivingrate(perm|temp)|sent to too many recipients|\bfrequency limited\b|reached (your|the) daily limit|daily limit for message recipients/i, 70],
  // Our sender, HELO or host was refused: the recipient address is not in question.
  // AOL "...could not be delivered because they are not accepting mail from x": the recipient refuses our sender.
  // Exchange Online's NDR table "550 5.1.0 Sender denied"; qmail-remote "Connected to x but sender was rejected".
  [SENDER_REFUSED, 50],
  // Receivers' own codes for a message refused as spam, whatever policy words come with them: Yahoo's "[PH01] Email not
  // accepted for policy reasons", Apple's "[HM08] Message rejected due to local policy", Exchange Online's 5.7.350,
  // "policy violation detected (AS345)", and "[P2]".
  [/\[ph0?1\]|5\.7\.350|policy violation detected|\[hm08\]|\[p2\]/i, 52],
  // A refusal that names policy (POLICY_REFUSAL, our-traffic.ts) outranks RFC 5321's generic "mailbox unavailable" beside it
  // (GMX's "550-Requested action not taken: mailbox unavailable / 550-Reject due to policy restrictions.").
  [POLICY_REFUSAL, 50],
  // AOL's "521 5.2.1 : AOL will not accept delivery of this message." after DATA: its filter, not a disabled mailbox
  // (Word to the Wise, "When did the reject happen?", 2015-11).
  [/will not accept delivery of this message/i, 50],
  // Refused by our authentication's result, whatever address status came with it (grhosting.cz's published
  // "550 5.1.0 ... blocked by SPF").
  [/\b(blocked|rejected|refused) (by|due to) (spf|dkim|dmarc)\b/i, 50],
  [LISTED_SOURCE, 51],
  // Coremail's and NetEase's refusals of our IP or of look-alike bulk mail (Coremail's published bounce prompts,
  // icoremail.vip "Requested mail action not taken: Invalid IP"; "550 black ip.", "556 remote ip check error.",
  // "552 too many same size mails."); "550 ip in prison" (a receiver's reply in ActiveCampaign's smtp-field-manual, issue 11).
  [/\b(invalid|black|bad) ip\b|remote ip check error|\bip check (error|fail)|\bip in prison\b/i, 50],
  [/too many (same|similar)[- ]size (mails|messages)/i, 52],
  [TOO_MANY_BAD_RECIPIENTS, 50],
  [HELO_REFUSED, 50],
  [/not accepting (mail|messages|e-?mail) from|sender address rejected|sender (domain|address) (must exist|not verified|does not exist|is not|rejected)|sender verify failed|verification failed for|helo command rejected|client host rejected|badmailfrom|bad outbound sender|turn on smtp authentication|envelope sender (is )?(in|on|not|rejected)/i, 50],
  // Google Groups refusing a post (the group does not exist or the sender may not post): the list's
  // policy, not the sender's address (sisimai lib/sisimai/lhost/googlegroups.rb: reason "rejected").
  [/^google groups:/i, 50],
  // A mailing list refusing a non-member's post (fml "You are not a member of this mailing list";
  // sisimai lib/sisimai/lhost/fml.rb: reason "rejected").
  [/not a member of (this|the) (mailing )?list|posting (is )?restricted to members|only members (can|may) post/i, 50],
  // Exim "malformed address": our message's header was wrong (sisimai reason "syntaxerror").
  // So is Exim's default configuration refusing our message's form ("550 header syntax", "550 maximum allowed line
  // length is 998 octets, got 1200"; configure.default, acl_check_data): soft, never the address. QQ's "550 The "From"
  // header is missing or invalid. Please follow RFC5322" (its help, service.mail.qq.com/detail/124/995) likewise.
  [/malformed (recipient )?address|incorrectly constructed|^\d{3} header syntax\b|maximum allowed line length is \d+|"?from"? header is (missing|invalid)|(missing|invalid) "?from"? header/i, 40],
  // A mail loop caught by a list server (fml "Duplicated Message-ID", sisimai: "systemerror").
  [/duplicated message-id|loop alert/i, 40],
  // The receiver's own delivery set-up failed (Exim "delivery to file forbidden", sisimai lhost/exim.rb: systemerror),
  // not a refusal of our mail, whatever "forbidden" suggests.
  [/delivery to (file|pipe) forbidden/i, 40],
  // OpenSMTPD gave up on every MX after connection errors ("All routes to destination blocked", sisimai
  // lhost/opensmtpd.rb: networkerror): its own routing state, not a receiver's block.
  [/all routes to destination blocked/i, 21],
  // Japanese carriers (au/ezweb, docomo): "the destination address was not found", "does not exist".
  // Lotus Notes / Domino in Japanese: "not in the directory list", "not found in the Domino directory"
  // (sisimai lhost/notes.rb, lhost/domino.rb: userunknown).
  [/見つかりませんでした|存在しません|宛先不明|あて先不明|ディレクトリ(のリスト)?に(は)?(見つかりません|ありません)/, 10],
  // cPanel's Exim text for an address it has no account for (it lists every possible cause).
  [/the account or domain may not exist/i, 10],
  // O365 directory-based edge blocking: the address is not in the tenant.
  [/recipient address rejected: access denied|resolver\.adr\.(ex)?recip(ient)?notfound|recipientnotfound|recipient not found by smtp address lookup/i, 10],
];

/** The mailbox exists but is switched off for good or for long (disabled, suspended, inactive, locked,
 *  frozen): SparkPost and sisimai (reason "suspend", reply 525 / 5.2.1) treat it as an address that
 *  cannot receive, so a hard bounce that suppresses. Checked before the invalid-recipient words.
 *  Sources: Gmail "The email account that you tried to reach is disabled / inactive" (5.2.1),
 *  Yahoo "This mailbox is disabled (554.30)", i.ua "Mailbox is frozen", La Poste "Le compte du
 *  destinataire est bloque", vpopmail "account is locked", qmail-ldap "Mailaddress is administratively disabled"
 *  (lib/sisimai/lhost/qmail.rb), 163.net "User x@163.net is disabled" (help.szhot.com), Yandex "Policy rejection on
 *  the target address" (its bounce help: the recipient's account is blocked for breaking the user agreement),
 *  Stalwart's "This account is not authorized to receive email." (its local delivery); sisimai
 *  lib/sisimai/reason/suspend.rb. */
const DISABLED: Rule[] = [
  [/\bsuspend(s|ed)?\b|\buser \S+@\S+ is disabled\b|(account|mailbox|user|address|recipient)( has been| is| was)?( temporarily)? (disabled|deactivated|suspended|inactive|locked|frozen|on hold)|(account|mailbox)( is| has been)? blocked|(disabled|deactivated|inactive|suspended|locked|frozen) (account|mailbox|user)|this (mailbox|account|address) is (disabled|inactive|suspended)|disabled or discontinued|tried to reach is (disabled|inactive)|temporar(y|ily) locked|administrativ\w* disabled|compte du destinataire est bloqu|estado:? inactiv[oa]|konto jest zablokowane|nieaktywne|bloccato per inutilizzo|mailbox (is )?(currently )?(inactive|disabled)|policy rejection on the target address|account is not authorized to receive/i, 10],
];

/** The receiving system (not the mailbox) is full: it may take mail later (sisimai "systemfull", RFC 3463 X.3.1;
 *  qmail's "mailbox unavailable (not enough free space)", lib/sisimai/lhost/qmail.rb). */
const SYSTEM_FULL: Rule[] = [
  [/(mail )?system (is )?full|insufficient system storage|not enough free space/i, 20],
  // Sendmail's text for EX_CANTCREAT (sysexits.h 73, "can't create (user) output file"): the receiver's local delivery
  // could not write the mailbox, its own failure, whatever its 550.
  [/can'?t create (user )?output/i, 40],
];

/** The recipient's mailbox is full (before "invalid" and "timeout": "mailbox full: retry timeout exceeded"). WEB.DE
 *  says it in both languages with a 550: "Benutzer hat das Speichervolumen ueberschritten. / User has exhausted allowed
 *  storage space." (sitepackage.de's list of providers' typical bounce texts). */
const MAILBOX_FULL: Rule[] = [
  [/over ?quota|quota (exceeded|exceed|full|reached|violation)|exceed(s|ed)? (the |his |her |their )?(mailbox |storage |disk )?(quota|storage allocation)|mailbox (is |was )?(full|over|at capacity|size limit)|mail ?box (has )?exceeded|full mailbox|mailbox full|(insufficient|out of) (disk |system )?(storage|space)|storage (allocation|limit) (exceeded|reached)|mailfolder is (over|full)|\bfolder (is )?full\b|user('s)? (mailbox|disk|account) is (full|over)|disk quota|no space left|(mail ?box|disk|storage) space (is )?not enough|not enough (disk |mail ?box |storage )?space|postfach (ist )?voll|speichervolumen (ue|ü)berschritten|exhausted (the )?allowed storage|bo[iî]te (aux lettres )?pleine|(buz[oó]n|correo) lleno|casella (piena|di posta piena)|mailbox size limit exceeded|overquota|quota de messagerie|too many messages (in|on) (this |the )?(mailbox|server|inbox)|空间不足|邮箱已满|邮箱空间已满|容量不足/i, 22],
];

/** A missing mailbox in other languages' words (German, French, Spanish, Italian, Portuguese, Dutch, Polish, Czech,
 *  Scandinavian, Turkish, Japanese, Korean; Russian and Chinese are receivers' texts, receiver-texts.ts). Exchange's
 *  French and Italian NDRs ("L'adresse de messagerie que vous avez entrée est introuvable", "Non sono riuscito a trovare
 *  l'indirizzo e-mail", "n'accepte plus de messages"), Orange's "Adresse d au moins un destinataire invalide" and
 *  Domino's Spanish "no se encuentra en la Libreta" are read even where a bounce carries no code. */
const OTHER_LANGUAGES_RE =
  /utilisateur inconnu|destinataire inconnu|adresse (e-?mail )?(inconnue|invalide|introuvable|inexistante)|adresse de messagerie [^.]{0,40}\bintrouvable|destinataire invalide|n'accepte plus de messages|non (sono riuscito|è stato possibile) a trovare l'indirizzo|n'existe pas|inexistant|unbekannt|existiert nicht|wurde nicht in [\w.-]+ gefunden|nicht im (domino-)?verzeichnis aufgef|non r[ée]pertori[ée] dans l'annuaire|no se encuentra en (el directorio|la libreta)|nicht vorhanden|ung[üu]ltige (adresse|empf[äa]nger)|usuario (desconocido|no existe|inexistente)|no existe|(casilla|cuenta|buz[oó]n)( de correo)? (ha expirado|ha sido (dada de baja|eliminada|cerrada|desactivada|deshabilitada)|expirad[ao]|inexistente|dad[ao] de baja|desactivad[ao]|deshabilitad[ao]|cerrad[ao])|direcci[oó]n (no v[aá]lida|inexistente)|destinatario (inesistente|sconosciuto|errato)|destin\. sconosciuto|indirizzo (inesistente|errato)|nie ma takiego (konta|u[zż]ytkownika|adresu)|utente (sconosciuto|inesistente)|onbekende (gebruiker|ontvanger)|bestaat niet|nieznany (u[zż]ytkownik|adresat)|nie istnieje|usu[aá]rio (desconhecido|inexistente)|n[aã]o existe|inexistente|(ist )?nicht bekannt|(utente|destinatario|indirizzo|casella)( di posta)? non (trovat[oa]|esistente|valid[oa])|neexistuje|finns inte|findes ikke|finnes ikke|kullan[ıi]c[ıi] bulunamad[ıi]|存在しません|존재하지 않는/i;
const OTHER_LANGUAGES: Rule = [OTHER_LANGUAGES_RE, 10];

/** More phrasings of a missing mailbox, from CwsMailBounceHandler's phrase table (Handler.php getStatusCodeFromPattern,
 *  all 5.1.x there): Gmail's "address_not_found", "no one with that email address here", "no such mail drop", LDAP lookups. */
const MAILBOX_UNKNOWN_MORE: Rule = [/address[_ ]not[_ ]found|(e-?mail )?address (was|is) not found|no mail ?box (here|available)|no one with (that|this) (e-?mail )?address|no such mail ?drop|(doesn't|does not) handle mail for (that|this) user|not found in (the )?ldap|unable to find (alias )?user|no longer on (this |the )?server|(invalid|unknown)( or (invalid|unknown))? virtual user|the name was not found at the remote site/i, 10];

/** The address does not exist, never existed or is closed for good. */
const INVALID: Rule[] = [
  [/user(name)? (is )?unknown|unknown (local )?user|no such (user|mailbox|recipient|address|account|person|local user|e-?mail)|(user|mailbox|recipient|address|account|e-?mail address|addressee|destination address|local part|local-part)( name)? (does not|doesn't|do not|did not) exist|(user|mailbox|recipient|address|account|addressee|e-?mail( address)?)( name)? (not found|unknown|is unknown|is not known|not known|is invalid|invalid|not valid|is not valid|nonexistent|non-existent|unavailable|not listed|not recognized|is not recognized|not exist)/i, 10],
  [/(invalid|unknown|bad|nonexistent|non-existent|unrecognized|illegal|unverified|undeliverable) (recipient|receiver|mailbox|user|address|account|e-?mail address|destination( mailbox)?( address)?|addressee|local[- ]?part)|addressee unknown|no mailbox (here )?(by that name|found)|mailbox name not allowed|mailbox (not found|unavailable|does not exist|is (not available|unavailable))|requested action not taken: mailbox unavailable|mailbox not available|mailbox unavailable|not a valid ([\w.-]+ )?(recipient|user|mailbox|address|e-?mail address|account)|unknown (or illegal )?alias|(doesn't|does not) have an? ([\w.-]+ )?(e-?mail )?account|address you entered (couldn't|could not|cannot|can't) be found|(recipient|user|addressee) (has )?left the (company|organi[sz]ation)|(account|mailbox) (is )?(unavailable|not active|not in use|inactive)|(account|mailbox) (has been |is |was )?(closed|deleted|removed|deactivated)|account (has )?expired|(do not|don't) know (this|that|the) (user|recipient|address)|no one (at|by) (this|that) (address|name)|no longer (accepts|receives) (e-?)?mail|(address|mailbox) (does not|doesn't) receive (e-?)?mail/i, 10],
  [/doesn't have an? [\w.-]+ account|not our customer|no longer (accepts|receives|accepting|available|active|valid|in use|with)|account (has been |is |was )?(closed|terminated|deleted|expired|removed|discontinued)|(closed|expired|deleted) (account|mailbox|user|address)|this (mailbox|account|address) is closed|mailbox (is )?closed|not listed in (the )?(domino |public |address )?(name (& |and )?)?(directory|address book)|bad destination|not a valid (recipient|user|mailbox|address|subscriber|number|phone)|recipient (rejected|invalid|unknown|not (found|accepted|valid))|invalid (number|subscriber|mdn|phone)|subscriber (does not exist|unknown|not found)|not enabled for (e-?mail|messaging)|no (valid|such) recipients?|(unrouteable|unroutable) address|mailbox moved|has moved|address (has )?changed|mailbox owner has changed/i, 10],
  // The domain takes no mail: no such domain, no mail exchanger, or a null MX (RFC 7505).
  [/(host|domain)( name)? (or domain name )?not found(?!.*try again)|host unknown|unknown host|host name is unknown|no such domain|non-?existent ?domain|domain (does not exist|doesn'?t exist|not found|is not valid|invalid|unknown|not exist)|(couldn't|could not|can't|cannot) find any host (named|by that name)|all relevant mx records point to non-existent hosts|all host address lookups failed permanently|nowhere to deliver mail to|the domain [\w.-]+ (couldn't|could not|can't|cannot) be found|could not be found in (the )?domain name (service|system)|lookup of [\w.-]+ had no relevant answers|dns server returned answer with no data|no (mx|mail exchanger|mail server)s?( or a)?( record)?s? (were )?(record )?(for|found)|does not accept (e-?)?mail|accepts no mail|null mx|nullmx|no mail servers? for|unknown domain|invalid domain|domain (has been )?(disabled|expired)|dns (error|failure).*(nxdomain|does not exist)|(?<!\w)nxdomain|mail for .* (not|isn't) accepted|couldn't find a mail exchanger/i, 10],
  MAILBOX_UNKNOWN_MORE,
  // Postfix's reject_non_fqdn_recipient: the address itself can never be delivered (Yandex's bounce help lists it
  // among the replies for a non-existing address).
  [/recipient address rejected: need fully[- ]qualified address/i, 10],
  // qmail's validrcptto patch: the address is not on the server's list of valid recipients.
  [/not in my validrcptto list/i, 10],
  // Proofpoint Essentials: "550 5.7.1 Recipient address rejected: User email address is marked as invalid" (its help
  // page: the recipient is on the organisation's list of invalid addresses).
  [/(e-?mail )?address is marked as invalid/i, 10],
  // IMail "Invalid final delivery userid"; Verizon / Apache James "Error: Invalid user address".
  [/invalid final delivery userid|invalid user address|(address|account|recipient) (couldn't|could not|cannot|can't) be found|recipient address rejected\.?\s*$/i, 10],
  // The domain takes no mail or cannot be found: Sendmail/DragonFly "host X not found", Outlook.com
  // "the domain is not reachable", Gmail's null-MX text, mail.ru "indicated no SMTP service" (RFC 7505).
  [/\bhost [\w.-]+ not found(?!.*try again)|domain is not reachable|doesn't receive email according to the administrator|indicated no smtp service|(smtp|mail) service (is )?not (available|offered) for this domain/i, 10],
  // Other languages.
  OTHER_LANGUAGES,
];



/** Our authentication (SPF, DKIM, DMARC) or our host's DNS (PTR) failed the receiver's checks. */
const AUTH: Rule[] = [
  // A receiver's filter refusing the message (Amazon SES "Message Filtered" 5.2.0; sisimai reason/filtered.rb).
  // Zoho's "541 5.4.1 Mail rejected by destination domain" (its filters, whatever RFC 3463's 5.4.1 says).
  [/\b(message|mail|content) (was |has been )?filtered\b|rejected by (the )?(recipient'?s? )?(mail )?filter|filtered by|rejected by (the )?destination domain/i, 50],
  // An allowlist that our IP is not on (Google Workspace's SMTP error reference: "421 4.7.0 IP not in whitelist for RCPT domain").
  [/\bnot in (the )?(white|allow) ?list\b/i, 50],
  // TLS required by one side and not offered by the other (sisimai reason "failedstarttls").
  // Mimecast's published codes: "553 This route requires encryption (TLS)", "... TLS version 1.2 or greater",
  // "... high-strength ciphers" (the recipient's policy on our connection, not the address).
  [/does not support (starttls|tls)|(starttls|tls|encryption) (is )?required|must issue a starttls|requires (encryption|tls|high-strength ciphers)/i, 50],
  // Outlook.com: "domain [x] mismatches client ip" (sisimai rhost/outlook.rb: requireptr).
  [/mismatches client ip/i, 50],
  [/dmarc|\bspf\b|dkim|domainkeys|unauthenticated|authentication (check|fail|required|information)|\b(smtp )?auth required\b|not authenticated|fails? to pass authentication|5\.7\.2[0-9]\b|\bptr\b|reverse dns|rdns|reverse (dns|lookup|mapping)|cannot find your hostname|fully-qualified hostname/i, 50],
];

/** Blocked because of where the mail comes from: listed IP or domain, reputation, volume from a bad source. */
const SPAM_SOURCE: Rule[] = [
  // SFR "450 4.7.1 Service refused due to bad behavior SFR_IN_10x": our IP held back for what it sent (bentonow.com's SFR list).
  [/(refused|rejected|blocked) (due to|for|because of) (bad|abusive|suspicious) behaviou?r/i, 51],
  // A listed URL or domain in the body is about content.
  [/uribl|surbl|dbl\.spamhaus|spamhaus dbl|url (is |was )?(listed|blocked|blacklisted)|(link|url|domain) in (the )?(message|body)|phish/i, 52],
  // Korean receivers' "550 You are registered as spammer (by user's reject list)" (puffinknight.tistory.com's list);
  // Tencent's "Suspected bounce attacks" (sisimai's Tencent table, from QQ's bounce help): our traffic, not the address.
  [/\bregistered as (a )?spammer\b|bounce attacks?|black ?list|block ?list|blocklisted|blacklisted|deny ?list|denylist|\bdnsbl\b|\brbl\b|spamhaus|spamcop|sorbs|barracudacentral|b\.barracuda|uceprotect|psbl|invaluement|mailspike|cbl\.abuseat|proofpoint.*dnsbl|dnsbl-lookup|listed (at|on|in|by)(?! the section)|is listed(?! in the section)|(ip|sender|sending|domain|your) reputation|(poor|bad|low|negative) reputation|reputation (is )?too low|\bsbrs\b|email reputation (services|database)|banned sending ip|traffic not accepted from this ip|unusual rate of unsolicited|(high|unusual) (volume|rate) of (spam|unsolicited|complaints)|user complaints|\[ts0[1-4]\]|\[tss0[1-9]\]|\[tss1\d\]|\[gl0?1\]|\[rl0?1\]|s3140|s3150|s3115|sc-00\d|ou-00\d|dy-00\d|bl0000\d\d|aup#|5\.7\.60\d|5\.7\.70\d|5\.7\.750|dynamic ip|residential ip|\bdial-?up\b(?!\.)|client host .* blocked|blocked using|ip (address )?(is )?(blocked|banned|rejected)|your ip|sender ip|sending ip|ip .* (has been )?(blocked|listed)|rejected (due to|because of) (ip|sender) reputation|compromised|botnet/i, 51],
];

/** Blocked because of what the message says. "spam" stands alone or beside an underscore (Paran's "Transaction failed.
 *  (SPAM_SUSPECT:IP_CONTROL)"), not inside a word. */
const SPAM_CONTENT: Rule[] = [
  [/(?<![a-z])spam(?![a-z])|spammy|system antyspamowy|anti-?spam (system|filter)|unsolicited (mail|e-?mail|bulk|commercial)|likely unsolicited|junk (mail|e-?mail)|content (filter|rejected|policy|restriction)|message content (rejected|not accepted)|(rejected|blocked) (due to|because of|for) (its )?content|bulk mail|virus|malware|infected|trojan|worm|suspicious (content|message|url|link)|\bquarantined\b|inappropriate (words|content)|message ((was|is|has been) )?(looks|appears|considered|classified|identified|flagged|detected)( as)? (like )?(r?spam|suspicious|bulk|junk)|spamassassin|high (spam )?score|score (too high|exceeded)/i, 52],
];

/** Refused by the receiver's policy: authentication, PTR, sender checks, generic blocks. */
const MAIL_BLOCK: Rule[] = [
  // RFC 5321's 501 wording is about our command, never the mailbox; United Internet (GMX, WEB.DE, mail.com) and
  // IONOS/1&1 publish it, even under 550, as a refusal of a misconfigured sending server (their postmaster pages).
  [/syntax error in parameters or arguments/i, 50],
  // Exchange Online's NDR sentences for a recipient or group that takes mail only from senders it allows
  // (learn.microsoft.com, "Fix NDR error 550 5.7.1", "5.7.133 through 5.7.136 in Exchange Online").
  [/delivery to this (address|recipient|group) is restricted|only accepts messages from (people|senders)|(isn't|is not|not) on (the|its) allowed senders list/i, 50],
  // Winmail's "the message matches up to the filter rule(level: system, ...)", 163.net's "This Message is not welcome"
  // (a Tencent Exmail forum's list of such replies: the receiver's filter refused the mail).
  [/\bfilter rules?\b|\bmessage is not welcome\b/i, 50],
  [/spoof|not authorized|unauthorized|not permitted|administrative prohibition|prohibited|policy|access denied|denied|refused|rejected|blocked|banned|not allowed|not accepted|forbidden|5\.7\.1\b|\[cs0\d\]/i, 50],
];

const TOO_LARGE: Rule[] = [
  [/exceeds? (the )?administrative limit|message (is )?too (large|big|long)|message size|size (limit|exceeds|exceeded)|exceeds? (the )?(maximum|max|fixed|allowed) (message )?size|too large|message length exceeds|exceeded .*size limit|taille limite du message|\b(is )?more than \d+ bytes\b/i, 23],
];

const TIMEOUT: Rule[] = [
  [/all hosts have been failing|(multiple|repeated) delivery attempts failed|host (is )?(not reachable|unreachable)|did not accept our requests to connect|delivery failed \d+ attempts|timed? ?out|timeout|time-out|expired|too long in (the )?queue|retry time(out)? exceeded|(could not|couldn't) be delivered (within|for|in) \d|giving up|gave up|delivery time expired|in the queue too long|no answer from host|not going to try again|retried for the maximum period/i, 24],
  // Postfix "connect to x[ip]:25: Connection refused", Sendmail "Deferred: Connection refused by x": nobody answered,
  // so no verdict on our mail was given (sisimai's Microsoft table: networkerror), whatever "refused" suggests.
  [/(connect to \S+|deferred): connection refused|connection refused by \S|no route to host|network is unreachable/i, 24],
];

const DNS: Rule[] = [
  [/name service error|dns (lookup )?(error|failure|problem|timeout)|(mx|dns|domain) lookup (error|failure|failed)|servfail|host not found, try again|4\.4\.3/i, 21],
];

/** A failure that may pass later: rate limits, busy or broken servers; and mail loops. */
const TRANSIENT: Rule[] = [
  [/try again|temporar(y|ily)|too many (connections|messages|recipients|concurrent|sessions)|rate (limit|exceeded|control)|throttl|deferred|try later|unexpected volume|sending (quota|limit) exceeded|receiving mail at a rate|resources? (temporarily )?unavailable|service (temporarily |currently )?(not )?(un)?available|busy|overloaded|local error in processing|please retry/i, 70],
  [/loop(s| detected|ing)? (back )?|hop count|too many hops|mail loop|routing loop/i, 40],
  // The receiver's own fault (Yandex "E2: Cannot accept your message due to internal error"; ImprovMX's published
  // "5.9.3 Database Error"): soft.
  [/internal (server |system )?error|\bdatabase error\b/i, 40],
];

/** A decisive phrase that is about something other than the address (relaying, a rate, our sender,
 *  challenge-response, greylisting): it outweighs an address status such as GoDaddy's 5.1.1 on a rate limit. */
export const isDecisiveNonAddressText = (text: string): boolean => DECISIVE.some(([re, cls]) => cls !== 10 && re.test(text));

/** Words that say the account exists but is disabled or suspended: a hard bounce whatever else is said. */
export const isDisabledAccountText = (text: string): boolean => DISABLED.some(([re]) => re.test(text));

/** Words that say the mailbox is unknown (not the domain, not a disabled account). */
export const isMailboxUnknownText = (text: string): boolean =>
  !DISABLED.some(([re]) => re.test(text)) && [...INVALID.slice(0, 2), MAILBOX_UNKNOWN_MORE, OTHER_LANGUAGES].some(([re]) => re.test(text)) && !/\b(host|domain|mx)\b/i.test(text);

/** Rules in the order they are tried. Transient rules are last: their words appear in other failures too. */
const STRONG: readonly Rule[] = [...DECISIVE, ...SYSTEM_FULL, ...MAILBOX_FULL, ...DISABLED, ...INVALID, ...AUTH, ...SPAM_SOURCE, ...SPAM_CONTENT, ...TOO_LARGE, ...TIMEOUT, ...DNS];
/** Generic words ("rejected", "try again"): a specific enhanced code beats them. */
const WEAK: readonly Rule[] = [...MAIL_BLOCK, ...TRANSIENT];

/** The class the text implies and whether it came from a specific phrase, or undefined. */
export function classFromText(text: string): { cls: BounceClass; strong: boolean } | undefined {
  if (!text) return undefined;
  for (const [re, cls] of STRONG) if (re.test(text)) return { cls, strong: true };
  for (const [re, cls] of WEAK) if (re.test(text)) return { cls, strong: false };
  return undefined;
}
