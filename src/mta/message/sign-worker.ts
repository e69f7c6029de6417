// Worker thread entry: builds and signs messages off the main thread, so RSA signing (about 1 ms
// a message) uses every core. Speaks the small protocol of worker-builder.ts.
import { createLocalBuilder, type MessageBuilder } from "./builder.ts";
import { createTokenCodec } from "../../tracking/token.ts";
import type { BuildJob, WorkerInit, WorkerReply } from "./worker-protocol.ts";
import type { DkimKey } from "../../core/model.ts";
import { lowerThreadPriority } from "./thread-priority.ts";

/**
 * Nice value added to the worker's thread: when the cores are busy the kernel runs the main thread
 * (HTTP accepts, SMTP replies, outcome writes) first; at nice 10 the worker still gets about a
 * tenth of a core it shares with a busy thread, so signing never stops.
 */
const WORKER_NICENESS = 10;

declare const self: Worker;

let builder: MessageBuilder | null = null;
let clock = 0;
let linkBase: string | undefined;
const keys = new Map<string, DkimKey[]>();

self.onmessage = async (ev: MessageEvent<WorkerInit | BuildJob>) => {
  const msg = ev.data;
  if (msg.type === "init") {
    void lowerThreadPriority(WORKER_NICENESS);
    builder = createLocalBuilder({
      compose: { publicUrl: msg.publicUrl, codec: createTokenCodec(msg.secret), hostname: msg.hostname, mailbox: { secret: msg.secret, bounceDomain: msg.bounceDomain } },
      keysFor: async (domain) => keys.get(domain) ?? [],
      now: () => clock,
      linkBaseFor: () => linkBase ?? msg.publicUrl,
    });
    return;
  }
  try {
    clock = msg.now;
    linkBase = msg.linkBase;
    if (msg.keys) keys.set(msg.message.domain, msg.keys);
    const built = await builder!.build(msg.message, msg.attachments, msg.recipientId);
    // A copy of its own, handed over rather than copied again on the main thread (the busier one);
    // the builder keeps `built` for the message's other recipients.
    const bytes = new Uint8Array(built);
    const reply: WorkerReply = { jobId: msg.jobId, bytes };
    self.postMessage(reply, [bytes.buffer]);
  } catch (e) {
    const reply: WorkerReply = { jobId: msg.jobId, error: (e as Error).message ?? String(e) };
    self.postMessage(reply);
  }
};
