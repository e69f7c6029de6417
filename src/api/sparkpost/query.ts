// Query strings as SparkPost clients send them: the Node client's `qs` writes arrays as
// `types[0]=a&types[1]=b`, others send `types[]=a`, repeated keys or `types=a,b`; all mean one list.
import { badFormat } from "./errors.ts";

export interface Query {
  str(name: string): string | undefined;
  list(name: string): string[] | undefined;
  bool(name: string): boolean | undefined;
  int(name: string, opts: { min: number; max: number }): number | undefined;
}

const ARRAY_KEY = /^([^[\]]+)\[\d*\]$/;

/** Reads `request.url`'s query into lists per base name (bracket suffixes removed). */
export function readQuery(request: Request): Query {
  const values = new Map<string, string[]>();
  for (const [rawKey, value] of new URL(request.url).searchParams) {
    const key = ARRAY_KEY.exec(rawKey)?.[1] ?? rawKey;
    values.set(key, [...(values.get(key) ?? []), value]);
  }
  const str = (name: string) => values.get(name)?.at(-1);
  return {
    str,
    list(name) {
      const all = values.get(name);
      return all?.flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean);
    },
    bool(name) {
      const v = str(name)?.toLowerCase();
      if (v === undefined || v === "") return undefined;
      if (v === "true" || v === "1") return true;
      if (v === "false" || v === "0") return false;
      throw badFormat(`${name} must be true or false`);
    },
    int(name, { min, max }) {
      const v = str(name);
      if (v === undefined || v === "") return undefined;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) throw badFormat(`${name} must be an integer from ${min} to ${max}`);
      return n;
    },
  };
}
