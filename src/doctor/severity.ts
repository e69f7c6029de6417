// Severities in order of urgency: the worst of several is what a summary reports.
import type { Severity } from "./types.ts";

const RANK: Record<Severity, number> = { ok: 0, unknown: 1, warn: 2, error: 3 };

export const worst = (list: Severity[]): Severity => list.reduce<Severity>((w, s) => (RANK[s] > RANK[w] ? s : w), "ok");
