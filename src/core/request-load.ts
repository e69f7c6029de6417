// How many API requests are being answered right now. Accepting mail is what callers wait for;
// delivery happens later anyway. So while many requests are open, the MTA starts new deliveries
// more slowly (mta/delivery/turns.ts), and the main thread answers the requests first.

/** Open requests from which the server counts as busy with callers. */
const BUSY_AT = 8;

export interface RequestLoad {
  /** Counts `run` as an open request while it runs. */
  around<T>(run: () => Promise<T>): Promise<T>;
  /** True while at least BUSY_AT requests are open. */
  busy(): boolean;
  open(): number;
}

export function createRequestLoad(): RequestLoad {
  let open = 0;
  return {
    async around(run) {
      open++;
      try { return await run(); } finally { open--; }
    },
    busy: () => open >= BUSY_AT,
    open: () => open,
  };
}
