// A small counters/gauges registry rendered as Prometheus text by /metrics.

type Labels = Record<string, string | number>;

const labelText = (labels: Labels) => {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${String(v).replace(/["\\\n]/g, "_")}"`);
  return parts.length ? `{${parts.join(",")}}` : "";
};

export function createMetrics() {
  const counters = new Map<string, { help: string; values: Map<string, number> }>();
  const gauges = new Map<string, { help: string; read: () => Promise<Array<[Labels, number]>> }>();
  return {
    /** Adds `by` to counter `name` with `labels`. */
    inc(name: string, help: string, labels: Labels = {}, by = 1) {
      let c = counters.get(name);
      if (!c) counters.set(name, (c = { help, values: new Map() }));
      const key = labelText(labels);
      c.values.set(key, (c.values.get(key) ?? 0) + by);
    },
    /** Registers a gauge read when /metrics is scraped. */
    gauge(name: string, help: string, read: () => Promise<Array<[Labels, number]>>) {
      gauges.set(name, { help, read });
    },
    async render(): Promise<string> {
      const out: string[] = [];
      for (const [name, c] of counters) {
        out.push(`# HELP ${name} ${c.help}`, `# TYPE ${name} counter`);
        for (const [labels, v] of c.values) out.push(`${name}${labels} ${v}`);
      }
      for (const [name, g] of gauges) {
        out.push(`# HELP ${name} ${g.help}`, `# TYPE ${name} gauge`);
        for (const [labels, v] of await g.read()) out.push(`${name}${labelText(labels)} ${v}`);
      }
      return out.join("\n") + "\n";
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
