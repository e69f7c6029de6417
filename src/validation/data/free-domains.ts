// Free (consumer) mailbox providers: anyone can sign up, so the address says nothing about an
// organisation. Kept in the repo because the npm `free-email-domains` package downloads its data
// in a postinstall script and mixes in disposable domains.
// Sources: HubSpot's published free-domain list, the Kickbox/Mailcheck popular-domain lists and
// the providers' own sign-up pages (regional brands of Yahoo, Outlook, GMX/WEB.DE, Yandex, mail.ru).
// Disposable services are deliberately absent; test/validation/lists.test.ts checks the overlap.

export const FREE_DOMAINS: readonly string[] = [
  // Google
  "gmail.com", "googlemail.com",
  // Microsoft
  "hotmail.com", "hotmail.co.uk", "hotmail.fr", "hotmail.de", "hotmail.it", "hotmail.es", "hotmail.nl",
  "hotmail.be", "hotmail.ca", "hotmail.com.au", "hotmail.com.br", "hotmail.co.jp", "hotmail.se",
  "outlook.com", "outlook.fr", "outlook.de", "outlook.es", "outlook.it", "outlook.co.uk", "outlook.jp",
  "outlook.com.br", "outlook.com.au", "live.com", "live.co.uk", "live.fr", "live.de", "live.it",
  "live.nl", "live.ca", "live.com.au", "live.be", "live.se", "msn.com", "passport.com", "windowslive.com",
  // Yahoo / AOL (Yahoo Inc.)
  "yahoo.com", "yahoo.co.uk", "yahoo.fr", "yahoo.de", "yahoo.it", "yahoo.es", "yahoo.ca", "yahoo.com.au",
  "yahoo.com.br", "yahoo.co.jp", "yahoo.co.in", "yahoo.in", "yahoo.com.mx", "yahoo.com.ar", "yahoo.gr",
  "yahoo.se", "yahoo.no", "yahoo.dk", "yahoo.ie", "yahoo.co.nz", "yahoo.com.sg", "yahoo.com.ph",
  "ymail.com", "rocketmail.com", "aol.com", "aol.co.uk", "aol.fr", "aol.de", "aim.com", "love.com",
  "verizon.net", "att.net", "sbcglobal.net", "bellsouth.net", "pacbell.net", "frontier.com",
  // Apple
  "icloud.com", "me.com", "mac.com",
  // Privacy-focused and independent
  "protonmail.com", "protonmail.ch", "proton.me", "pm.me", "tutanota.com", "tutanota.de", "tuta.io",
  "tuta.com", "fastmail.com", "fastmail.fm", "hushmail.com", "mailfence.com", "posteo.de", "posteo.net",
  "runbox.com", "disroot.org", "zoho.com", "zohomail.com", "zohomail.eu",
  // mail.com / GMX / WEB.DE (United Internet)
  "mail.com", "email.com", "usa.com", "post.com", "consultant.com", "gmx.com", "gmx.net", "gmx.de",
  "gmx.at", "gmx.ch", "gmx.fr", "gmx.co.uk", "gmx.us", "web.de",
  // Russia and CIS
  "yandex.ru", "yandex.com", "ya.ru", "yandex.ua", "yandex.by", "yandex.kz", "mail.ru", "inbox.ru",
  "list.ru", "bk.ru", "rambler.ru", "ukr.net", "i.ua", "meta.ua",
  // Asia
  "qq.com", "foxmail.com", "163.com", "126.com", "yeah.net", "sina.com", "sina.cn", "sohu.com",
  "aliyun.com", "naver.com", "hanmail.net", "daum.net", "nate.com", "rediffmail.com",
  // Europe (ISPs and national portals)
  "orange.fr", "wanadoo.fr", "free.fr", "sfr.fr", "neuf.fr", "laposte.net", "club-internet.fr",
  "t-online.de", "freenet.de", "arcor.de", "online.de", "libero.it", "virgilio.it", "tiscali.it",
  "alice.it", "tin.it", "email.it", "inwind.it", "terra.es", "telefonica.net", "btinternet.com",
  "sky.com", "virginmedia.com", "ntlworld.com", "talktalk.net", "blueyonder.co.uk", "tiscali.co.uk",
  "seznam.cz", "centrum.cz", "atlas.cz", "wp.pl", "o2.pl", "onet.pl", "interia.pl", "op.pl",
  "bluewin.ch", "sunrise.ch", "telenet.be", "skynet.be", "ziggo.nl", "kpnmail.nl", "home.nl",
  "planet.nl", "xs4all.nl", "chello.nl", "telia.com", "online.no", "abv.bg", "freemail.hu", "sapo.pt",
  // Americas and Oceania (ISPs)
  "comcast.net", "cox.net", "charter.net", "earthlink.net", "optonline.net", "roadrunner.com",
  "rr.com", "juno.com", "netzero.net", "centurylink.net", "windstream.net", "shaw.ca", "rogers.com",
  "sympatico.ca", "videotron.ca", "telus.net", "uol.com.br", "bol.com.br", "terra.com.br",
  "ig.com.br", "bigpond.com", "bigpond.net.au", "optusnet.com.au", "xtra.co.nz",
];
