// Suppression entries in Mailgun's per-list shapes: whitelists use camelCase `createdAt` and
// `value`, unsubscribes list `tags` (kept in the entry's `code`, see suppression-input.ts).
import type { SuppressionType } from "../../core/model.ts";
import type { Suppression } from "../../core/store-port.ts";
import { formatDate } from "./model.ts";

export function toSuppressionItem(type: SuppressionType, s: Suppression) {
  const created_at = formatDate(s.createdAt);
  switch (type) {
    case "bounces": return { address: s.address, code: s.code || "550", error: s.reason, created_at };
    case "unsubscribes": return { address: s.address, tags: (s.code || "*").split(",").filter(Boolean), created_at };
    case "whitelists": return { value: s.address, reason: s.reason, type: "address", createdAt: created_at };
    default: return { address: s.address, created_at };
  }
}
