// Exim (4.96 seen) pipelines QUIT after the final dot when it has no further message for the
// connection, and then shuts its side of the socket (a TCP FIN, shutdown(SHUT_WR)): the reply to
// the end of DATA must still reach it. A plain SMTP client over a raw socket does exactly that here.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";
import type { Principal } from "../../src/core/model.ts";

let t: TestApp;
let sink: Sink;
let smtpPort = 0;
let principal: Principal;

beforeAll(async () => {
  sink = await startSink();
  t = await makeTestApp({ toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
  smtpPort = Number((await t.app.start()).smtp!.split(":").pop());
  principal = (await t.app.access.authenticate(t.domainKey))!;
});
afterAll(async () => { await t.close(); await sink.close(); });

async function returnPathFor(rcpt: string): Promise<string> {
  const before = sink.messages.length;
  await t.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "news@example.com" },
    envelopes: [{ to: [{ email: rcpt }], subject: "hi", text: "body" }] });
  return (await sink.waitFor(before + 1))[before]!.from;
}

/** One step of a dialog: wait for a reply matching `after` (since the last step), then send `send`. */
type Step = [after: RegExp, send: string];

/**
 * Speaks to the listener step by step and sends a FIN right after the last step, as Exim does.
 * Returns what the server said until it closed (or `until` held).
 */
function dialog(steps: Step[], until: (got: string) => boolean = () => false): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port: smtpPort, host: "127.0.0.1", allowHalfOpen: true });
    let got = "";
    let seen = 0;
    let next = 0;
    socket.on("data", (d) => {
      got += d.toString();
      if (until(got)) { socket.destroy(); resolve(got); return; }
      while (next < steps.length && steps[next]![0].test(got.slice(seen))) {
        seen = got.length;
        socket.write(steps[next++]![1]);
        if (next === steps.length) socket.end();
      }
    });
    socket.on("close", () => resolve(got));
    socket.on("error", reject);
  });
}

const dsn = (returnPath: string, rcpt: string) => readFileSync(join(import.meta.dir, "../fixtures/reports/exim-5.1.1.eml"), "utf8")
  .replace(/b\+[a-z2-7]+@bounces\.example\.com/g, returnPath).replaceAll("gone@remote.example", rcpt).replace(/\r?\n/g, "\r\n");

/** Exim's steps for one DSN: the pipelined MAIL, RCPT and DATA after the EHLO reply, the content with its dot after 354. */
function transaction(returnPath: string, rcpt: string): [string, string] {
  return [`MAIL FROM:<>\r\nRCPT TO:<${returnPath}>\r\nDATA\r\n`, `${dsn(returnPath, rcpt).replace(/^\./gm, "..")}.\r\n`];
}
const GREETING = /^220 /m;
const EHLO_DONE = /^250 /m;
const GO_AHEAD = /^354 /m;
const recorded = async (rcpt: string) =>
  (await t.app.activity.events("example.com", { recipient: rcpt, limit: 10, ascending: true })).map((e) => e.type);

describe("a client that pipelines QUIT after the final dot and half-closes (as Exim does)", () => {
  test("one DSN: the end of DATA is answered 250, QUIT 221, and the DSN is recorded", async () => {
    const rcpt = "half-close@dest.test";
    const [envelope, content] = transaction(await returnPathFor(rcpt), rcpt);
    const got = await dialog([[GREETING, "EHLO exim.test\r\n"], [EHLO_DONE, envelope], [GO_AHEAD, `${content}QUIT\r\n`]]);
    expect(got).toMatch(/^250 2\.0\.0 report received\r\n221 /m);
    expect(await recorded(rcpt)).toContain("failed");
  });

  test("three DSNs on one connection, the last with QUIT and a FIN: every one answered", async () => {
    const rcpts = ["half-close-a@dest.test", "half-close-b@dest.test", "half-close-c@dest.test"];
    const txs: [string, string][] = [];
    for (const r of rcpts) txs.push(transaction(await returnPathFor(r), r));
    // Each message's content with the next transaction's envelope pipelined after its dot.
    const got = await dialog([[GREETING, "EHLO exim.test\r\n"], [EHLO_DONE, txs[0]![0]],
      ...txs.map(([, content], i): Step => [GO_AHEAD, content + (txs[i + 1]?.[0] ?? "QUIT\r\n")])]);
    expect(got.match(/^250 2\.0\.0 report received/gm)).toHaveLength(3);
    expect(got).toMatch(/^221 /m);
    for (const r of rcpts) expect(await recorded(r)).toContain("failed");
  });

  test("a FIN right after the dot, without QUIT: the end of DATA is still answered, then the server closes", async () => {
    const rcpt = "half-close-noquit@dest.test";
    const [envelope, content] = transaction(await returnPathFor(rcpt), rcpt);
    const got = await dialog([[GREETING, "EHLO exim.test\r\n"], [EHLO_DONE, envelope], [GO_AHEAD, content]]);
    // dialog() resolves when the server closes: long before its idle timeout (a minute), or this test times out.
    expect(got).toMatch(/^250 2\.0\.0 report received\r\n$/m);
    expect(await recorded(rcpt)).toContain("failed");
  });

  test("a client that connects and sends a FIN before a command is not kept until the idle timeout", async () => {
    const got = await dialog([[GREETING, ""]]);
    expect(got).toMatch(/^220 /);
  });
});
