// One DNS answer as a fact: the records, "no such record", or a failure with its cause. Checks
// judge the three differently: a missing record is the operator's to publish, a failed look-up is
// `unknown` (the record may well be there).
import { NOT_FOUND_CODES } from "../dns.ts";

export type Looked<T> = { ok: true; records: T[] } | { ok: false; missing: true; cause: string } | { ok: false; missing: false; cause: string };

/** The error code a DNS failure carries (ENOTFOUND, ENODATA, ESERVFAIL, ETIMEOUT, …). */
export const codeOf = (e: unknown): string => String((e as { code?: string })?.code ?? (e as Error)?.message ?? e);

export async function looked<T>(ask: () => Promise<T[]>): Promise<Looked<T>> {
  try {
    const records = await ask();
    return records.length ? { ok: true, records } : { ok: false, missing: true, cause: "ENODATA" };
  } catch (e) {
    const code = codeOf(e);
    return { ok: false, missing: NOT_FOUND_CODES.has(code), cause: code };
  }
}

/** Words for a failure's code in a summary. */
export function causeText(code: string): string {
  switch (code) {
    case "ENOTFOUND": case "NXDOMAIN": return "no such name";
    case "ENODATA": return "no such record";
    case "ESERVFAIL": return "SERVFAIL";
    case "ETIMEOUT": return "no answer in time (timeout)";
    case "EREFUSED": return "the DNS server refused";
    default: return code;
  }
}

/** A's and AAAA's addresses of a name, together; a failure of both is a failure. */
export async function addressesOf(resolver: { a(n: string): Promise<string[]>; aaaa(n: string): Promise<string[]> }, name: string): Promise<Looked<string>> {
  const [a, aaaa] = await Promise.all([looked(() => resolver.a(name)), looked(() => resolver.aaaa(name))]);
  const records = [...(a.ok ? a.records : []), ...(aaaa.ok ? aaaa.records : [])];
  if (records.length) return { ok: true, records };
  const failed = [a, aaaa].find((x) => !x.ok && !x.missing);
  return failed ?? (a as Looked<string>);
}
