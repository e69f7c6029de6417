// The one answer to "may we accept new mail now?", for every HTTP surface and for SMTP: refused
// while free space on the data directory's filesystem is under `[storage] min_free`, and for a
// short while after a write failed because the disk was full (SQLITE_FULL, ENOSPC). Delivery,
// tracking and webhooks never ask: mail already accepted keeps moving while new mail waits.
// Postfix answers 452 4.3.1 under 1.5x its message size limit; KumoMTA refuses under 10 % free.
import { AppError } from "./errors.ts";
import type { SendRequest } from "./model.ts";
import type { SendService } from "./send.ts";

export interface DiskGuardDeps {
  /** Free bytes for an unprivileged writer on data_dir's filesystem; null when it cannot be read. */
  freeBytes: () => number | null;
  /** Bytes that must stay free; 0 turns the free-space check off (write failures still count). */
  minFree: number;
  now: () => number;
  /** How long one reading of free space is trusted (the contract: "every few seconds"). */
  probeMs?: number;
  /** After a full-disk write failure, how long new mail is refused before one more write is tried. */
  fullBackoffMs?: number;
}

export interface DiskState {
  ok: boolean;
  free_bytes: number | null;
  min_free_bytes: number;
}

/** Seconds a refused client is told to wait (Retry-After). */
export const STORAGE_RETRY_AFTER_S = 30;

export const storageRefusal = () =>
  new AppError("unavailable", "insufficient system storage: new mail is refused until space is freed; retry later", { reason: "storage" });

/** True for a failure of a write because the disk (or the database file's filesystem) is full. */
export function isDiskFull(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : "";
  if (code.startsWith("SQLITE_FULL") || code === "ENOSPC" || code === "53100") return true; // 53100: PostgreSQL disk_full
  return /database or disk is full|no space left on device|could not extend file/i.test(typeof e?.message === "string" ? e.message : "");
}

export function createDiskGuard(deps: DiskGuardDeps) {
  const probeMs = deps.probeMs ?? 2000;
  const fullBackoffMs = deps.fullBackoffMs ?? 5000;
  let free: number | null = null;
  let readAt = -Infinity;
  let fullUntil = 0;

  function freeNow(force = false): number | null {
    const t = deps.now();
    if (force || t - readAt >= probeMs) {
      free = deps.freeBytes();
      readAt = t;
    }
    return free;
  }

  /** Whether `bytes` more may be written now (0: the question at MAIL FROM or before a send). */
  function mayAccept(bytes = 0): boolean {
    if (deps.now() < fullUntil) return false;
    if (deps.minFree <= 0) return true;
    // A large write looks again rather than trust a reading seconds old.
    const f = freeNow(bytes >= 1024 * 1024);
    return f === null || f - bytes >= deps.minFree;
  }

  return {
    mayAccept,
    /** Throws the storage refusal (a 503 on HTTP, 452 4.3.1 on SMTP) when new mail must wait. */
    admit(bytes = 0): void {
      if (!mayAccept(bytes)) throw storageRefusal();
    },
    /** Looks at a failed write: a full disk refuses new mail for a while and becomes the storage refusal. */
    translate(err: unknown): unknown {
      if (!isDiskFull(err)) return err;
      fullUntil = deps.now() + fullBackoffMs;
      readAt = -Infinity;
      return storageRefusal();
    },
    state(): DiskState {
      return { ok: mayAccept(), free_bytes: freeNow(), min_free_bytes: deps.minFree };
    },
  };
}

export type DiskGuard = ReturnType<typeof createDiskGuard>;

/** Roughly the bytes a send writes: its bodies and attachments (what "a large write" is measured by). */
export function sendBytes(req: SendRequest): number {
  let n = 0;
  for (const e of req.envelopes) n += (e.text?.length ?? 0) + (e.html?.length ?? 0) + (e.amp?.length ?? 0) + (e.raw?.byteLength ?? 0);
  for (const a of req.attachments ?? []) n += a.content.byteLength;
  return n;
}

/**
 * The send service behind the guard: every accept path (the four APIs, SMTP submission, forwards,
 * the CLI) asks before it writes, and a write that fails on a full disk becomes the same refusal.
 */
export function guardSends<S extends Pick<SendService, "send">>(sender: S, guard: DiskGuard): S {
  return {
    ...sender,
    async send(principal, req) {
      guard.admit(sendBytes(req));
      try {
        return await sender.send(principal, req);
      } catch (err) {
        throw guard.translate(err);
      }
    },
  } as S;
}
