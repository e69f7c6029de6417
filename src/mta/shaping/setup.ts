// The shaping tables from the config: [mta] max_connections_per_host and messages_per_connection
// are the default's values unless [mta.shaping.default] names its own; configured providers
// override built-in ones field by field (by name) and come first when matching; configured
// automation rules are tried before the built-in ones.
import type { Config } from "../../config/load.ts";
import type { LimitsConfig } from "../../config/shaping.ts";
import { BUILT_IN_AUTOMATION, BUILT_IN_PROVIDERS, DEFAULT_LIMITS, type ProviderRule, type Shaping, type ShapingLimits } from "./rules.ts";

function merge(base: ShapingLimits, over: LimitsConfig): ShapingLimits {
  const connections = over.connections ?? base.connections;
  return {
    connections,
    // A ceiling below the usual start (max_connections_per_host = 2) is where it starts.
    initialConnections: Math.min(connections, over.initial_connections ?? base.initialConnections),
    messagesPerConnection: over.messages_per_connection ?? base.messagesPerConnection,
    rate: over.rate === undefined ? base.rate : over.rate,
  };
}

export function shapingFrom(mta: Config["mta"]): Shaping {
  const cfg = mta.shaping;
  const defaults = merge({ ...DEFAULT_LIMITS, connections: mta.max_connections_per_host, messagesPerConnection: mta.messages_per_connection }, cfg.default);
  const configured: ProviderRule[] = Object.entries(cfg.providers).map(([name, p]) => {
    const builtIn = BUILT_IN_PROVIDERS.find((b) => b.name === name);
    return { name, match: p.match ?? builtIn?.match ?? [], limits: merge(builtIn?.limits ?? defaults, p) };
  });
  const providers = [...configured, ...BUILT_IN_PROVIDERS.filter((b) => !cfg.providers[b.name])];
  const automation = [
    ...cfg.automation.map((r) => ({ provider: r.provider, match: new RegExp(r.match), action: r.action, durationMs: r.duration, builtIn: false })),
    ...BUILT_IN_AUTOMATION,
  ];
  return { defaults, providers, automation };
}
