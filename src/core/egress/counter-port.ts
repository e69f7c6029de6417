// The storage port of the egress counters (part of ControlStore, in its own file to keep store-port.ts short).

/**
 * Messages sent through each egress source (by its name) per UTC hour (hours since the epoch),
 * shared by every node, so a warming address's hourly cap holds across them.
 */
export interface EgressCounterStore {
  /** Counts one send through `source` in `hour` unless `cap` are counted there already; true when counted. */
  takeEgressSlot(source: string, hour: number, cap: number): Promise<boolean>;
  /** Adds sends counted in memory (warm sources, written in batches); forgets hours older than a day before `hour`. */
  addEgressSends(hour: number, counts: Readonly<Record<string, number>>): Promise<void>;
  /** Each source's sends in `hour`. */
  egressSends(hour: number): Promise<Record<string, number>>;
}
