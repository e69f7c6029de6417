// SPF, DKIM and DMARC of received mail (mailauth, through our resolver so multi-string TXT
// records read as published), and the trace headers we add in front of the stored message.
import { authenticate } from "mailauth";
import { toMailauthResolver, type Resolver } from "../../dns.ts";
import type { InboundAuth } from "../../core/inbound/model.ts";

export interface AuthInput { ip: string; helo: string; mailFrom: string; hostname: string; resolver: Resolver; now: number }

type Result = { status?: { result?: string } };
type AuthOut = {
  spf?: Result | false; dmarc?: Result | false; headers?: string;
  dkim?: { results?: (Result & { signingDomain?: string })[] };
};

const word = (r: Result | false | undefined, none = "none") => (r && r.status?.result) || none;

/** Never throws: a DNS failure reads as temperror, not as a lost message. */
export async function checkAuthentication(raw: Uint8Array, input: AuthInput): Promise<{ auth: InboundAuth; trace: string }> {
  let out: AuthOut = {};
  try {
    out = (await authenticate(Buffer.from(raw), {
      ip: input.ip, helo: input.helo, sender: input.mailFrom, mta: input.hostname,
      resolver: toMailauthResolver(input.resolver) as never, disableArc: true, disableBimi: true,
    })) as AuthOut;
  } catch (e) {
    out = { headers: `Authentication-Results: ${input.hostname}; auth=temperror (${(e as Error).message.slice(0, 100)})\r\n` };
  }
  const auth: InboundAuth = {
    spf: word(out.spf),
    dkim: (out.dkim?.results ?? []).map((r) => ({ domain: r.signingDomain ?? "", result: word(r) })).filter((d) => d.domain),
    dmarc: word(out.dmarc),
  };
  const date = new Date(input.now).toUTCString().replace("GMT", "+0000");
  const received = `Received: from ${input.helo || "unknown"} ([${input.ip}])\r\n\tby ${input.hostname} (postern) with ESMTP; ${date}\r\n`;
  return { auth, trace: `${out.headers ?? ""}${received}` };
}
