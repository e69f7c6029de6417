// Structured logger: one JSON line per entry on stderr, with a component and standard fields
// (msgId, rcpt, domain, mx, attempt). Level from the caller; quiet in tests unless POSTERN_LOG is set.

export type Level = "debug" | "info" | "warn" | "error";
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(component: string): Logger;
}

/** The last few errors, for `postern status` (through /healthz). */
export function createRecentErrors(size = 20) {
  const entries: { t: string; component?: string; msg: string }[] = [];
  return {
    push(e: { t: string; component?: string; msg: string }) { entries.push(e); if (entries.length > size) entries.shift(); },
    list: () => [...entries],
  };
}

export type RecentErrors = ReturnType<typeof createRecentErrors>;

export function createLogger(opts: { level?: Level | "silent"; component?: string; write?: (line: string) => void; recent?: RecentErrors } = {}): Logger {
  const min = opts.level === "silent" ? Infinity : ORDER[opts.level ?? "info"];
  const write = opts.write ?? ((line: string) => process.stderr.write(line + "\n"));
  const emit = (level: Level, msg: string, fields?: Record<string, unknown>) => {
    if (level === "error") opts.recent?.push({ t: new Date().toISOString(), component: opts.component, msg });
    if (ORDER[level] < min) return;
    write(JSON.stringify({ t: new Date().toISOString(), level, component: opts.component, msg, ...fields }));
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
    child: (component) => createLogger({ ...opts, component: opts.component ? `${opts.component}.${component}` : component }),
  };
}
