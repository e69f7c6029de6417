import { describe, expect, test } from "bun:test";
import { createWorkerBuilder } from "../../../src/mta/message/workers.ts";
import { createLogger } from "../../../src/log.ts";
import type { MessageBuilder } from "../../../src/mta/message/builder.ts";
import type { StoredMessage } from "../../../src/core/store-port.ts";

const message = { id: "m1", domain: "a.test" } as StoredMessage;
const fallback: MessageBuilder = { build: async () => new TextEncoder().encode("built locally"), close: () => {} };

describe("signing workers", () => {
  test("workers that cannot start hand the work to the main thread instead of stalling the queue", async () => {
    const builder = createWorkerBuilder({ workers: 1, keysFor: async () => [], now: () => 0, log: createLogger({ level: "silent" }), fallback,
      init: { publicUrl: "http://x", secret: "s", hostname: "h", bounceDomain: "" }, workerPath: "/nonexistent/sign-worker.ts" });
    const outcomes: string[] = [];
    for (let i = 0; i < 5; i++) {
      outcomes.push(await builder.build(message, [], "r").then((b) => new TextDecoder().decode(b), () => "failed"));
    }
    expect(outcomes.slice(-2)).toEqual(["built locally", "built locally"]);
    builder.close();
  });
});
