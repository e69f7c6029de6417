// Ghost's analytics (@tryghost/email-analytics-provider-mailgun) strips only
// `https://api.mailgun.net/v3` from `paging.next` and hands the rest to mailgun-js's get(), which
// puts its endpoint in front: postern receives `/v3http://HOST:PORT/v3/<domain>/events/<page>`.
// Such a path names one of postern's own paging URLs; it is answered here as that page. Only a URL
// whose host is this request's own Host (the host postern built its paging links from) is taken,
// and nothing is ever fetched from anywhere.

const EMBEDDED = /^\/v3(https?):\/\/([^/?#]+)(\/v3\/[^?#]*)$/i;

/** The URL to serve instead when `url` is `/v3` + one of postern's absolute paging URLs, else null. */
export function ownPagingUrl(url: URL, host: string | null): URL | null {
  const m = EMBEDDED.exec(url.pathname);
  if (!m || !host || m[2]!.toLowerCase() !== host.toLowerCase()) return null;
  const inner = new URL(url.href);
  inner.pathname = m[3]!;
  return inner;
}
