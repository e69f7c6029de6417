// The receivers' own words for "this mailbox (or this domain) does not exist", as they publish or
// send them. Each says, by the receiver that wrote it, that the address cannot receive mail: an
// invalid recipient (SparkPost class 10, RFC 3463 X.1.1 semantics) whatever command it answered
// and whatever generic code it came with (Yahoo sends "dd" texts after DATA with a bare 554, Gmail
// and qmail have sent "no such user" under 5.7.1). Only texts, with their sources; no other
// project's code or data. Pure.

interface ReceiverText {
  re: RegExp;
  /** Who writes it and where it is published or seen. */
  source: string;
}

export const UNKNOWN_RECIPIENT_TEXTS: readonly ReceiverText[] = [
  { re: /doesn't have an? [\w.-]+ account|delivery error: dd (this user|sorry,? your message to \S+ cannot be delivered\. this (account|mailbox))/i,
    source: "Yahoo Mail, postmaster.yahooinc.com SMTP error codes: \"554 delivery error: dd This user doesn't have a yahoo.com account\"" },
  { re: /resolver\.adr\.(ex)?recip(ient)?notfound|recipient not found by smtp address lookup|recipientnotfound/i,
    source: "Microsoft Exchange Online NDR 5.1.1 / 5.1.10 (learn.microsoft.com, \"Fix NDR error 550 5.1.1\", \"550 5.1.10\")" },
  { re: /\bunknown to address\b/i,
    source: "Microsoft 365 NDR status box for 5.1.1 / 5.1.10 (\"Action Required ... Unknown To address\" beside \"x wasn't found at y\"; learn.microsoft.com, \"Fix email delivery issues for error code 550 5.1.1 through 5.1.20 in Exchange Online\")" },
  { re: /\bwasn't found at [a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}\b/i,
    source: "Microsoft 365 / Outlook.com NDR for 5.1.1 / 5.1.10, learn.microsoft.com \"Fix NDR error 550 5.1.10 in Exchange Online\": \"Your message to x couldn't be delivered. x wasn't found at contoso.com.\"" },
  { re: /e-?mail address was not found in the recipient's e-?mail system|destination e-?mail system is unknown or invalid/i,
    source: "Microsoft Exchange 2007-2019 DSN texts for 5.1.1 (\"The recipient's e-mail address was not found in the recipient's e-mail system\") and 5.4.4 (\"the recipient's destination email system is unknown or invalid\"), learn.microsoft.com \"Email non-delivery reports in Exchange Server\"" },
  { re: /5\.4\.1 recipient address rejected: access denied/i,
    source: "Microsoft Exchange Online Directory-Based Edge Blocking, learn.microsoft.com \"Fix NDR error 550 5.4.1 in Exchange Online\": \"550 5.4.1 Recipient address rejected: Access denied\" - the recipient is not in the domain's directory" },
  { re: /requested action not taken:? mailbox unavailable/i,
    source: "Outlook.com / Hotmail / IIS SMTP \"550 Requested action not taken: mailbox unavailable\" (RFC 5321 §4.2.3 550 text), sent at RCPT for an unknown mailbox" },
  { re: /the email account that you tried to reach does not exist/i,
    source: "Gmail, support.google.com/a/answer/3726730 (SMTP error reference) 550 5.1.1" },
  { re: /local mailbox \S+ is unavailable: user not found|invalid mailbox\. local mailbox/i,
    source: "Mail.Ru \"Message was not accepted -- invalid mailbox. Local mailbox x is unavailable: user not found\"" },
  { re: /пользовател[ья] (не найден|не существует)|нет такого (пользователя|адресата|почтового ящика|ящика)|такого (пользователя|адресата|ящика) нет|(адресат|получатель|почтовый ящик|ящик) не (найден|существует)|неверный (адрес|почтовый ящик)/i,
    source: "Mail.Ru / Yandex / Rambler Russian NDRs (\"Пользователь не найден\", \"Нет такого пользователя\")" },
  { re: /用户不存在|用戶不存在|收件人不存在|收信人不存在|邮箱不存在|郵箱不存在|帐号不存在|账号不存在|账户不存在|地址不存在|无此用户|查无此人|该用户未开通/,
    source: "Chinese providers' NDRs (Tencent QQ \"该邮箱不存在\", \"该用户未开通QQ邮箱\" - the QQ number has no mailbox, its bounce help; NetEase/Coremail \"用户不存在\" / \"收件人不存在\")" },
  { re: /\buser \S+@\S+ is not found in server\b|\bno correct recipients\b/i,
    source: "163.net / 263 \"User x@163.net is not found in Server .\" (tnet.hk's list of their bounces); Yandex's bounce help, \"No correct recipients\": the address does not exist" },
  { re: /\buser not found\b|\(user not found\)|recipient (address )?not found/i,
    source: "Novell GroupWise \"The message that you sent was undeliverable to the following: x (user not found)\"; QQ/163 \"550 User not found\"" },
  { re: /not our customer/i,
    source: "Comcast postmaster error codes: \"550 5.1.1 <x> Not our Customer\"" },
  { re: /no such user|\berr\.nosuchuser\b|mail[- ]?box (is )?not (found|available)|no mailbox (here )?by that name|not a known user|is not an active address/i,
    source: "Yandex \"550 5.7.1 No such user!\", AOL \"550 MAILBOX NOT FOUND\", qmail \"Sorry, no mailbox here by that name. (#5.1.1)\", qmail badrcptto \"user mail-box not found (#5.7.1)\", Sprynet / MindSpring \"500 (err.nosuchuser)\"" },
  { re: /address does not exist|recipient does not exist|rcpt <[^>]*> does not exist|user \[?[^\]\s]*\]? does not exist|(user|recipient|addressee) unknown|unknown (user|recipient|addressee)/i,
    source: "Sendmail \"User unknown\" (RFC 3463 X.1.1), Yahoo \"553 5.3.0 <x>... Address does not exist\", Postfix \"User unknown in local recipient table\"" },
  { re: /did not (exactly )?match an? [\w.-]+ e-?mail address/i,
    source: "Lawrence Livermore National Laboratory's mail gateway: \"The address to which your message was addressed, x, did not exactly match an LLNL email address\"" },
  { re: /no matches to nameserver query/i,
    source: "CSO/ph directory mail routers (phquery) at universities: \"No matches to nameserver query\" - no such person" },
];

/** Words that say the domain (not the mailbox) has no mail service: also an address that cannot receive. */
export const UNKNOWN_HOST_TEXTS: readonly ReceiverText[] = [
  { re: /unrouteable (mail domain|address)|all relevant mx records point to non-existent hosts|no (valid )?(mx|mail exchanger)s?( hosts?| or a)?( records?)? (for|found)|(couldn't|could not|can't|cannot) find any host named/i,
    source: "Exim \"Unrouteable address\" / \"unrouteable mail domain\" / \"all relevant MX records point to non-existent hosts\", Sendmail \"Can't find any host named\", 1&1 \"no valid MX hosts found\"" },
  { re: /host unknown|unknown host|no such domain|name or service not known|host or domain name not found(?!.*try again)|domain (does not exist|not found)|doesn't receive email according to the administrator|(?<!\w)nxdomain|host does not accept (e-?)?mail|accepts no mail|null ?mx/i,
    source: "Sendmail \"Host unknown\", Postfix \"Host or domain name not found\", Gmail RFC 7505 null MX \"doesn't receive email according to the administrator\"" },
];

export const statesUnknownRecipient = (text: string): boolean => UNKNOWN_RECIPIENT_TEXTS.some((t) => t.re.test(text));
export const statesUnknownHost = (text: string): boolean => UNKNOWN_HOST_TEXTS.some((t) => t.re.test(text));
