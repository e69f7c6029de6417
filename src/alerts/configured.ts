// Configured rules as every surface and the CLI manage them: created from the native shape (or a
// vendor's, already mapped onto it), found and deleted by the id the engine gave them (as text on
// the wire), listed beside the built-in rules.
import type { AlertStore, StoredAlertRule } from "../core/alerts-port.ts";
import { BUILT_IN_RULES } from "./rules.ts";
import { durationText, ruleFromInput, ruleView, type RuleInput } from "./rule-input.ts";

const idOf = (text: string) => (/^\d{1,15}$/.test(text) ? Number(text) : null);

export function configuredRules(store: AlertStore, now: () => number) {
  async function get(id: string): Promise<StoredAlertRule | null> {
    const n = idOf(id);
    return n === null ? null : (await store.listAlertRules()).find((r) => r.id === n) ?? null;
  }
  return {
    getRule: get,
    /** Validates `input` (AppError invalid) and stores it; `extra` keeps a surface's own fields (channels, muted, name). */
    async createRule(input: RuleInput, source: string, extra: Record<string, unknown> = {}): Promise<StoredAlertRule> {
      return store.insertAlertRule({ ...ruleFromInput(input, source, now(), undefined, source !== "native" && source !== "cli"), extra });
    },
    /** Changes what `input` gives of rule `id`; null when there is no such rule. */
    async changeRule(id: string, input: RuleInput, extra?: Record<string, unknown>): Promise<StoredAlertRule | null> {
      const base = await get(id);
      if (!base) return null;
      const next = { ...ruleFromInput(input, base.source, now(), base), id: base.id, ...(extra ? { extra: { ...base.extra, ...extra } } : {}) };
      return (await store.updateAlertRule(next)) ? next : null;
    },
    async deleteRule(id: string): Promise<boolean> {
      const n = idOf(id);
      return n !== null && store.deleteAlertRule(n);
    },
    /** The built-in rules and the configured ones, as `GET /alerts` and `alerts list` show them. */
    async ruleViews() {
      const builtIn = BUILT_IN_RULES.map((r) => ({ id: r.id, metric: r.metric, threshold: r.threshold, window: durationText(r.window),
        min_volume: r.minVolume, domain: r.domain, built_in: true }));
      return [...builtIn, ...(await store.listAlertRules()).map((r) => ({ ...ruleView(r), built_in: false }))];
    },
  };
}
