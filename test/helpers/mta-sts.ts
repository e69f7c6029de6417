// An MTA-STS policy host on loopback (RFC 8461 §3.3: https://mta-sts.<domain>/.well-known/mta-sts.txt
// on port 443, which is where mailauth and sts-fetch.ts look), and the test CA that issued its
// certificate added to this process's default trust store (what NODE_EXTRA_CA_CERTS does for a server).
import tls from "node:tls";

export interface PolicyHost {
  /** "host/path" of every request, in order. */
  requests: string[];
  stop(): void;
}

/** Serves `body` with `status` on `address`:443 with `cert`, as text/plain. */
export function servePolicy(address: string, cert: { key: string; cert: string }, body: string, status = 200): PolicyHost {
  const requests: string[] = [];
  const server = Bun.serve({ hostname: address, port: 443, tls: { key: cert.key, cert: cert.cert },
    fetch(req) {
      requests.push(`${req.headers.get("host")}${new URL(req.url).pathname}`);
      return new Response(body, { status, headers: { "content-type": "text/plain" } });
    } });
  return { requests, stop: () => server.stop(true) };
}

/** Trusts `caPem` for TLS from now on; the returned function restores the trust store as it was. */
export function trustCa(caPem: string): () => void {
  const before = tls.getCACertificates("default");
  tls.setDefaultCACertificates([...before, caPem]);
  return () => tls.setDefaultCACertificates(before);
}
