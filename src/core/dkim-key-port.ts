// The store's side of the DKIM key lifecycle (core/dkim-rotation.ts): a domain's keys are read
// with ControlStore.getDkimKeys (every state); these add one and move one along.
import type { DkimKey, DkimKeyState } from "./model.ts";

export interface DkimKeyStore {
  /** Adds a key; false when the domain already has that selector. */
  insertDkimKey(k: DkimKey & { state: DkimKeyState; createdAt: number }): Promise<boolean>;
  /** Moves one key to `state`; false when the domain has no such selector. */
  updateDkimKey(domainId: number, selector: string, patch: { state: DkimKeyState; activatedAt?: number | null; retireAt?: number | null }): Promise<boolean>;
}
