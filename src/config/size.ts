// Sizes as written in the config file ("0", "512", "40MiB", "1GiB", "1.5GiB") → bytes.
const UNIT_BYTES: Record<string, number> = { "": 1, b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, tib: 1024 ** 4 };

/** Parses a byte count with an optional binary unit (B, KiB, MiB, GiB, TiB); null when the text is not a size. */
export function parseSize(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  if (!m) return null;
  const unit = UNIT_BYTES[m[2]!.toLowerCase()];
  return unit === undefined ? null : Math.round(Number(m[1]) * unit);
}
