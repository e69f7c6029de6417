// SendGrid's formatDate helper: a date (ISO 8601 string, or epoch seconds / milliseconds) in
// moment-style tokens, in UTC or at a fixed offset ("-0800", "+05:30"). Unknown input renders empty.

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const TOKENS = /\[([^\]]*)\]|YYYY|YY|MMMM|MMM|MM|M|DDDD|DD|D|dddd|ddd|HH|H|hh|h|mm|m|ss|s|SSS|A|a|ZZ|Z/g;
const pad = (n: number, w = 2) => String(n).padStart(w, "0");

function toDate(v: unknown): Date | null {
  if (typeof v === "number" || (typeof v === "string" && /^\d+$/.test(v.trim()))) {
    const n = Number(v);
    return new Date(n < 1e11 ? n * 1000 : n);
  }
  if (typeof v !== "string" || !v.trim()) return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Minutes east of UTC for "-0800", "+05:30", "-8"; 0 when absent or unreadable. */
function offsetMinutes(offset: string | undefined): number {
  const m = offset ? /^([+-])?(\d{1,2}):?(\d{2})?$/.exec(offset.trim()) : null;
  if (!m) return 0;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  return m[1] === "-" ? -minutes : minutes;
}

export function formatDate(value: unknown, format = "MMMM D, YYYY", offset?: string): string {
  const date = toDate(value);
  if (!date) return "";
  const shift = offsetMinutes(offset);
  const d = new Date(date.getTime() + shift * 60_000);
  const h = d.getUTCHours();
  const zone = (sep: string) => `${shift < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(shift) / 60))}${sep}${pad(Math.abs(shift) % 60)}`;
  const dayOfYear = Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
  const values: Record<string, string> = {
    YYYY: String(d.getUTCFullYear()), YY: pad(d.getUTCFullYear() % 100), MMMM: MONTHS[d.getUTCMonth()]!, MMM: MONTHS[d.getUTCMonth()]!.slice(0, 3),
    MM: pad(d.getUTCMonth() + 1), M: String(d.getUTCMonth() + 1), DDDD: pad(dayOfYear, 3), DD: pad(d.getUTCDate()), D: String(d.getUTCDate()),
    dddd: DAYS[d.getUTCDay()]!, ddd: DAYS[d.getUTCDay()]!.slice(0, 3), HH: pad(h), H: String(h), hh: pad(h % 12 || 12), h: String(h % 12 || 12),
    mm: pad(d.getUTCMinutes()), m: String(d.getUTCMinutes()), ss: pad(d.getUTCSeconds()), s: String(d.getUTCSeconds()),
    SSS: pad(d.getUTCMilliseconds(), 3), A: h < 12 ? "AM" : "PM", a: h < 12 ? "am" : "pm", ZZ: zone(""), Z: zone(":"),
  };
  return format.replace(TOKENS, (tok, literal: string | undefined) => literal ?? values[tok] ?? tok);
}
