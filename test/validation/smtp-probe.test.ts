import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:net";
import { SMTPServer } from "smtp-server";
import { createSmtpProber, type SmtpProberOptions } from "../../src/validation/smtp-probe.ts";
import { createMockResolver } from "../../src/dns.ts";

type RcptRule = (address: string) => { code: number; message: string } | null;

interface Sink {
  server: SMTPServer;
  port: number;
  rcpts: string[];
  connections: number;
  hasSeenData: boolean;
}

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

async function startSink(rule: RcptRule): Promise<Sink> {
  const sink = { rcpts: [] as string[], connections: 0, hasSeenData: false } as Sink;
  sink.server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    logger: false,
    disableReverseLookup: true,
    onConnect: (_session, cb) => (sink.connections++, cb()),
    onRcptTo(address, _session, cb) {
      sink.rcpts.push(address.address);
      const answer = rule(address.address);
      cb(answer ? smtpError(answer.code, answer.message) : undefined);
    },
    onData(stream, _session, cb) {
      sink.hasSeenData = true;
      stream.resume();
      stream.on("end", () => cb());
    },
  });
  await new Promise<void>((resolve) => sink.server.listen(0, "127.0.0.1", resolve));
  sink.port = (sink.server.server.address() as { port: number }).port;
  return sink;
}

const KNOWN = new Set(["alice@example.test"]);
const sinks: Record<string, Sink> = {};
let silent: Server;
let silentPort = 0;
let closedPort = 0;

beforeAll(async () => {
  sinks.strict = await startSink((a) => (KNOWN.has(a) ? null : { code: 550, message: "5.1.1 No such user" }));
  sinks.acceptAll = await startSink(() => null);
  sinks.greylist = await startSink(() => ({ code: 451, message: "4.7.1 Greylisted, try later" }));
  sinks.policy = await startSink(() => ({ code: 550, message: "5.7.1 Client host blocked" }));
  silent = createServer(() => {}); // accepts the connection, never greets
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  silentPort = (silent.address() as { port: number }).port;
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedPort = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(async () => {
  for (const sink of Object.values(sinks)) await new Promise<void>((resolve) => sink.server.close(() => resolve()));
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

const prober = (port: number, over: Partial<SmtpProberOptions> = {}) =>
  createSmtpProber({
    heloName: "probe.postern.test", mailFrom: "verify@postern.test", now: () => 0, port,
    connectTimeoutMs: 500, replyTimeoutMs: 500, randomLocalPart: () => "zq7randomzq7xyz",
    egress: { allowPrivate: true, resolver: createMockResolver({}) }, ...over,
  });

describe("createSmtpProber", () => {
  test("reports accept for a mailbox the server takes, after checking a random one first", async () => {
    const sink = sinks.strict as Sink;
    sink.rcpts.length = 0;
    const got = await prober(sink.port).probe("alice@example.test", ["127.0.0.1"]);
    expect(got).toMatchObject({ kind: "accept", code: 250 });
    expect(sink.rcpts).toEqual(["zq7randomzq7xyz@example.test", "alice@example.test"]);
  });

  test("reports reject with the enhanced code for an unknown mailbox", async () => {
    const got = await prober((sinks.strict as Sink).port).probe("bob@example.test", ["127.0.0.1"]);
    expect(got).toMatchObject({ kind: "reject", code: 550, enhancedCode: "5.1.1", mx: "127.0.0.1" });
  });

  test("never sends DATA", async () => {
    await prober((sinks.strict as Sink).port).probe("alice@example.test", ["127.0.0.1"]);
    expect((sinks.strict as Sink).hasSeenData).toBe(false);
  });

  test("reports accept_all when a random mailbox is accepted, and remembers the domain", async () => {
    const sink = sinks.acceptAll as Sink;
    const p = prober(sink.port);
    expect((await p.probe("anyone@catchall.test", ["127.0.0.1"])).kind).toBe("accept_all");
    const before = sink.connections;
    expect((await p.probe("other@catchall.test", ["127.0.0.1"])).kind).toBe("accept_all");
    expect(sink.connections).toBe(before);
  });

  test("reports unavailable on a 4xx greylisting reply", async () => {
    const got = await prober((sinks.greylist as Sink).port).probe("a@grey.test", ["127.0.0.1"]);
    expect(got).toMatchObject({ kind: "unavailable", code: 451 });
  });

  test("does not take a 5.7.x policy block for a missing mailbox", async () => {
    expect((await prober((sinks.policy as Sink).port).probe("a@policy.test", ["127.0.0.1"])).kind).toBe("unavailable");
  });

  test("reports timeout when the server never greets", async () => {
    expect((await prober(silentPort, { replyTimeoutMs: 50 }).probe("a@silent.test", ["127.0.0.1"])).kind).toBe("timeout");
  });

  test("reports no_connect when nothing listens", async () => {
    expect((await prober(closedPort).probe("a@closed.test", ["127.0.0.1"])).kind).toBe("no_connect");
  });

  test("moves to the next MX when the first cannot be reached", async () => {
    const got = await prober((sinks.strict as Sink).port).probe("alice@example.test", ["127.0.0.2", "127.0.0.1"]);
    expect(got).toMatchObject({ kind: "accept", mx: "127.0.0.1" });
  });

  test("stops probing a domain once its hourly budget is spent", async () => {
    let now = 0;
    const p = prober((sinks.strict as Sink).port, { now: () => now, maxProbesPerDomainPerHour: 2 });
    await p.probe("alice@example.test", ["127.0.0.1"]);
    await p.probe("alice@example.test", ["127.0.0.1"]);
    expect((await p.probe("alice@example.test", ["127.0.0.1"])).kind).toBe("unavailable");
    now += 60 * 60_000 + 1;
    expect((await p.probe("alice@example.test", ["127.0.0.1"])).kind).toBe("accept");
  });

  test("refuses an address that would inject SMTP commands", async () => {
    expect((await prober(1).probe("a@x.test>\r\nDATA", ["127.0.0.1"])).kind).toBe("invalid_smtp");
  });
});

describe("the probe's egress guard", () => {
  test("an MX host on a private or loopback address is refused without connecting, unless allowed", async () => {
    const sink = sinks.acceptAll as Sink;
    const before = sink.connections;
    const resolver = createMockResolver({ "mx.inside.test": { a: ["127.0.0.1"] } });
    const got = await prober(sink.port, { egress: { allowPrivate: false, resolver } }).probe("a@inside.test", ["mx.inside.test"]);
    expect(got).toMatchObject({ kind: "no_connect", mx: "mx.inside.test" });
    expect(got.message).toContain("127.0.0.1");
    expect(sink.connections).toBe(before);
  });

  test("the connection goes to the address checked (the MX name is not looked up again)", async () => {
    const sink = sinks.acceptAll as Sink;
    const before = sink.connections;
    // Only the injected resolver knows this name: reaching the sink means the checked address was used.
    const resolver = createMockResolver({ "mx.pinned.test": { a: ["127.0.0.1"] } });
    const got = await prober(sink.port, { egress: { allowPrivate: true, resolver } }).probe("a@pinned.test", ["mx.pinned.test"]);
    expect(got).toMatchObject({ kind: "accept_all", mx: "mx.pinned.test" });
    expect(sink.connections).toBe(before + 1);
  });
});
