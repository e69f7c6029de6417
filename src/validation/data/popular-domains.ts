// Domains people mistype most, in descending order of popularity (ties in typo distance go to the
// earlier entry), and misspelt top-level domains that are not real TLDs. The popular list is the
// Mailcheck/@zootools default set extended with the large regional providers.

export const POPULAR_DOMAINS: readonly string[] = [
  "gmail.com", "yahoo.com", "hotmail.com", "outlook.com", "icloud.com", "aol.com", "live.com",
  "msn.com", "googlemail.com", "me.com", "mac.com", "comcast.net", "verizon.net", "att.net",
  "sbcglobal.net", "bellsouth.net", "cox.net", "charter.net", "earthlink.net", "protonmail.com",
  "proton.me", "ymail.com", "rocketmail.com", "hotmail.co.uk", "yahoo.co.uk", "live.co.uk",
  "btinternet.com", "sky.com", "virginmedia.com", "hotmail.fr", "yahoo.fr", "orange.fr",
  "wanadoo.fr", "free.fr", "laposte.net", "gmx.de", "gmx.net", "gmx.com", "web.de", "t-online.de",
  "yahoo.de", "hotmail.de", "libero.it", "yahoo.it", "hotmail.it", "yahoo.es", "hotmail.es",
  "yandex.ru", "mail.ru", "qq.com", "163.com", "naver.com", "yahoo.co.jp", "yahoo.co.in",
  "rediffmail.com", "shaw.ca", "rogers.com", "yahoo.ca", "bigpond.com", "uol.com.br",
  "yahoo.com.br", "zoho.com", "fastmail.com", "mail.com", "gmx.at", "seznam.cz", "wp.pl",
];

/** Misspelt top-level domains (none is a delegated TLD) and what they were meant to be. */
export const TLD_TYPOS: Readonly<Record<string, string>> = {
  con: "com", cmo: "com", ocm: "com", comm: "com", coom: "com", vom: "com", xom: "com", cpm: "com",
  cim: "com", comn: "com", clm: "com", cok: "com", coim: "com", comi: "com", ccom: "com", copm: "com",
  nte: "net", ent: "net", ner: "net", nett: "net", neet: "net", nwt: "net",
  ogr: "org", orgg: "org", rog: "org", prg: "org", irg: "org",
  cou: "co.uk", couk: "co.uk", ukk: "uk", rdu: "edu", eud: "edu", frr: "fr", dee: "de",
};
