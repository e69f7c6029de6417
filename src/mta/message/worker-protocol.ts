// Messages between the main thread and the signing workers.
import type { DkimKey } from "../../core/model.ts";
import type { StoredAttachment, StoredMessage } from "../../core/store-port.ts";

export interface WorkerInit { type: "init"; publicUrl: string; secret: string; hostname: string; bounceDomain: string }
/** `keys` travel only when the worker has not seen this domain's current keys yet. */
export interface BuildJob { type: "build"; jobId: number; message: StoredMessage; attachments: StoredAttachment[]; recipientId: string; keys?: DkimKey[]; /** The base of its tracking links (the domain's tracking host or public_url). */ linkBase?: string; /** The signing time (t=), from the main thread's clock. */ now: number }
export interface WorkerReply { jobId: number; bytes?: Uint8Array; error?: string }
