// SPF, DKIM and DMARC of received mail (mailauth, through our resolver so multi-string TXT
// records read as published), and the trace headers we add in front of the stored message.
// mailauth reads the message as a stream: the body hash grows while the SMTP client sends, so
// no whole message is kept for it. mailauth is loaded with the first message received (about
// 20 MB of a server's memory, for a server that may never receive mail).
import { PassThrough } from "node:stream";
import { once } from "node:events";
import { toMailauthResolver, type Resolver } from "../../dns.ts";
import type { InboundAuth } from "../../core/inbound/model.ts";
import { createHeadCensus } from "./head-census.ts";

export interface AuthInput { ip: string; helo: string; mailFrom: string; hostname: string; resolver: Resolver; now: number }

type Result = { status?: { result?: string } };
type AuthOut = {
  spf?: Result | false; dmarc?: Result | false; headers?: string;
  dkim?: { results?: (Result & { signingDomain?: string })[] };
};

const word = (r: Result | false | undefined, none = "none") => (r && r.status?.result) || none;

function summarise(out: AuthOut, input: AuthInput): { auth: InboundAuth; trace: string } {
  const auth: InboundAuth = {
    spf: word(out.spf),
    dkim: (out.dkim?.results ?? []).map((r) => ({ domain: r.signingDomain ?? "", result: word(r) })).filter((d) => d.domain),
    dmarc: word(out.dmarc),
  };
  const date = new Date(input.now).toUTCString().replace("GMT", "+0000");
  const received = `Received: from ${input.helo || "unknown"} ([${input.ip}])\r\n\tby ${input.hostname} (postern) with ESMTP; ${date}\r\n`;
  return { auth, trace: `${out.headers ?? ""}${received}` };
}

/**
 * Checks a message fed piece by piece; never throws: a DNS failure reads as temperror, not as a lost
 * message. A header block past head-census.ts's limits is not checked at all (auth=none, the trace
 * says why): mailauth would take the square of its size.
 */
export function startAuthentication(input: AuthInput) {
  const stream = new PassThrough();
  const census = createHeadCensus();
  let unchecked: string | null = null;
  let settled = false;
  const { authenticate } = require("mailauth") as typeof import("mailauth");
  const result: Promise<AuthOut> = (authenticate(stream, {
    ip: input.ip, helo: input.helo, sender: input.mailFrom, mta: input.hostname,
    resolver: toMailauthResolver(input.resolver) as never, disableArc: true, disableBimi: true,
  }) as Promise<AuthOut>).catch((e: Error) => ({ headers: `Authentication-Results: ${input.hostname}; auth=temperror (${e.message.slice(0, 100)})\r\n` }))
    .finally(() => { settled = true; });
  return {
    /** Resolves once mailauth took the piece (its backpressure), or at once when it already gave up. */
    async write(chunk: Uint8Array): Promise<void> {
      if (settled || unchecked) return;
      unchecked = census.push(chunk);
      if (unchecked) return void stream.destroy();
      if (stream.write(chunk)) return;
      await Promise.race([once(stream, "drain"), result]);
    },
    async end(): Promise<{ auth: InboundAuth; trace: string }> {
      if (unchecked) return summarise({ headers: `Authentication-Results: ${input.hostname}; auth=none (not checked: ${unchecked})\r\n` }, input);
      stream.end();
      return summarise(await result, input);
    },
    abort() { stream.destroy(); },
  };
}

export async function checkAuthentication(raw: Uint8Array, input: AuthInput): Promise<{ auth: InboundAuth; trace: string }> {
  const check = startAuthentication(input);
  await check.write(raw);
  return check.end();
}
