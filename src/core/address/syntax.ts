// The RFC 5321 rules a parsed address must meet to be used as an SMTP recipient: length limits,
// host-name shape, no address literals. Pure; parsing itself is address.ts.
import type { Issue } from "../errors.ts";

export interface ParsedAddress {
  /** `localpart@domain` in the form it was given (quotes kept where the local part needs them). */
  email: string;
  localpart: string;
  /** The domain as given (may hold U-labels). */
  domain: string;
  /** Lower-cased A-label (punycode) form, for DNS and comparisons; "" when the IDN is invalid. */
  asciiDomain: string;
  /** Lower-cased U-label form, for display. */
  unicodeDomain: string;
  name?: string;
  /** Display name of the RFC 5322 group the address was listed in. */
  group?: string;
}

export const MAX_LOCAL_PART_OCTETS = 64; // RFC 5321 §4.5.3.1.1
export const MAX_DOMAIN_OCTETS = 253; // RFC 5321 §4.5.3.1.2 allows 255 on the wire, i.e. 253 as text
export const MAX_ADDRESS_OCTETS = 254; // RFC 5321 §4.5.3.1.3 path of 256 minus the angle brackets
export const MAX_LABEL_OCTETS = 63; // RFC 1035 §2.3.4

// RFC 1035 §2.3.1 letter-digit-hyphen labels, not starting or ending with a hyphen.
const LDH_LABEL_RE = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
// C0 controls and DEL can smuggle SMTP commands (CVE-2023-51764 family) and never belong in mail.
const CONTROL_RE = /[\x00-\x1F\x7F]/;
const NUMERIC_RE = /^[0-9]+$/;

const utf8Octets = (s: string): number => Buffer.byteLength(s, "utf8");

function checkDomain(asciiDomain: string, domain: string): string[] {
  if (domain.startsWith("[")) return ["address literals are not accepted as a domain"];
  if (asciiDomain === "") return ["domain is not a valid internationalised domain name"];
  const problems: string[] = [];
  if (asciiDomain.length > MAX_DOMAIN_OCTETS) problems.push(`domain is longer than ${MAX_DOMAIN_OCTETS} octets`);
  const labels = asciiDomain.split(".");
  // RFC 7085 and ICANN SSAC: dotless (TLD-only) domains do not receive mail.
  if (labels.length < 2) problems.push("domain must contain at least one dot");
  if (labels.some((l) => l.length > MAX_LABEL_OCTETS)) {
    problems.push(`domain has a label longer than ${MAX_LABEL_OCTETS} octets`);
  }
  if (labels.some((l) => l.length <= MAX_LABEL_OCTETS && !LDH_LABEL_RE.test(l))) {
    problems.push("domain labels may hold only letters, digits and inner hyphens");
  }
  // RFC 3696 §2: a numeric top-level label would make the name look like an IPv4 address.
  if (NUMERIC_RE.test(labels.at(-1) ?? "")) problems.push("top-level domain cannot be numeric");
  return problems;
}

/** The RFC 5321 problems of an already parsed address; [] when it is a sendable recipient. */
export function checkParsedSyntax(
  parsed: Pick<ParsedAddress, "email" | "localpart" | "domain" | "asciiDomain">,
  field?: string,
): Issue[] {
  const problems: string[] = [];
  if (CONTROL_RE.test(parsed.email)) problems.push("address contains control characters");
  if (parsed.localpart === "" || parsed.localpart === '""') problems.push("local part is empty");
  if (utf8Octets(parsed.localpart) > MAX_LOCAL_PART_OCTETS) {
    problems.push(`local part is longer than ${MAX_LOCAL_PART_OCTETS} octets`);
  }
  problems.push(...checkDomain(parsed.asciiDomain, parsed.domain));
  const total = utf8Octets(parsed.localpart) + 1 + (parsed.asciiDomain || parsed.domain).length;
  if (total > MAX_ADDRESS_OCTETS) problems.push(`address is longer than ${MAX_ADDRESS_OCTETS} octets`);
  return problems.map((message) => (field === undefined ? { message } : { field, message }));
}
