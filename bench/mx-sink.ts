// A counting SMTP sink that plays several MXes at once, one per loopback address, run as its own
// process so its CPU is not the MTA's (bench/shaped.ts starts it). Hand-written on Bun.listen
// because smtp-server cannot delay its greeting or EHLO, never greet, or refuse beyond N connections.
// Offers PIPELINING, 8BITMIME, SIZE and CHUNKING (as Postfix does).
//   bun bench/mx-sink.ts '<json: [{ name, host, delayMs?, neverGreet?, maxConnections? }]>' [SAMPLE_DIR]
// Prints "listening <name> <port>" per MX, then every 50 ms a JSON line when something changed:
// {"received":{name:n},"maxConnections":{name:n},"refused":{name:n},"messages":n,"signed":n,
// "signatures":{"<d=> <a=>":n},"between":{name:{n,mean,p50,p95}},"opened":{name:n}}, and
// "probe <i> <epoch ms>" the moment a message whose subject is
// "probe-<i>" is accepted. Every message's header is read for DKIM-Signature fields (#41: a peer
// whose signer is misconfigured must not pass for fast); with SAMPLE_DIR, the first messages and
// one in SAMPLE_EVERY after are written there whole, for the bench to verify their signatures
// after the measured part (bench/dkim-check.ts), so the sink's CPU stays small.
export interface MxSpec {
  name: string;
  host: string;
  /** Each reply leaves this long after its command arrived (pipelined commands wait together). */
  delayMs?: number;
  /** Accepts connections and never says a word. */
  neverGreet?: boolean;
  /** Beyond this many open connections, "421 4.7.0 too many connections" and close. */
  maxConnections?: number;
}

interface Session { spec: MxSpec; buf: Buffer; mode: "cmd" | "data" | "bdat"; bdatLeft: number; bdatLast: boolean; rcpts: number; body: Buffer[]; repliedAt: number }

const specs = JSON.parse(process.argv[2] ?? "[]") as MxSpec[];
const received: Record<string, number> = {};
const open: Record<string, number> = {};
const maxConnections: Record<string, number> = {};
const refused: Record<string, number> = {};
let changed = false;
let messages = 0;
let signed = 0;
const signatures: Record<string, number> = {};
const sampleDir = process.argv[3];
const SAMPLE_FIRST = 10;
const SAMPLE_EVERY = 100;
/**
 * The client's time between messages on one connection: from a message's final reply leaving here
 * to the next MAIL arriving, by MX, in 0.5 ms buckets up to 100 ms (the last bucket holds the
 * rest). On a reused connection this is what the MTA adds to the round trips per message.
 */
const GAP_BUCKET_MS = 0.5;
const GAP_BUCKETS = 200;
const gaps: Record<string, number[]> = {};
const opened: Record<string, number> = {};

function gapStats(h: number[]) {
  const n = h.reduce((a, b) => a + b, 0);
  if (!n) return null;
  const at = (q: number) => { let seen = 0; for (let i = 0; i < h.length; i++) { seen += h[i]!; if (seen >= q * n) return (i + 1) * GAP_BUCKET_MS; } return GAP_BUCKETS * GAP_BUCKET_MS; };
  const mean = h.reduce((sum, c, i) => sum + c * (i + 0.5) * GAP_BUCKET_MS, 0) / n;
  return { n, mean: Math.round(mean * 10) / 10, p50: at(0.5), p95: at(0.95) };
}

/** Counts the message's DKIM-Signature fields by signing domain and algorithm. */
function countSignatures(header: string) {
  let any = false;
  for (const m of header.matchAll(/^DKIM-Signature:((?:.*)(?:\r?\n[ \t].*)*)/gim)) {
    const field = m[1]!.replace(/\s+/g, "");
    const tag = (t: string) => new RegExp(`(?:^|;)${t}=([^;]*)`).exec(field)?.[1] ?? "?";
    const k = `${tag("d")} ${tag("a")}`;
    signatures[k] = (signatures[k] ?? 0) + 1;
    any = true;
  }
  if (any) signed++;
}

function reply(socket: Bun.Socket<Session>, text: string, close = false) {
  const send = () => {
    socket.write(`${text}\r\n`);
    if (close) socket.end();
    else if (text.startsWith("250 2.0.0 queued")) socket.data.repliedAt = performance.now();
  };
  const delay = socket.data.spec.delayMs ?? 0;
  if (delay > 0) setTimeout(send, delay); else send();
}

function accepted(s: Session, dotStuffed: boolean) {
  received[s.spec.name] = (received[s.spec.name] ?? 0) + s.rcpts;
  changed = true;
  const text = Buffer.concat(s.body).toString("latin1");
  const headerEnd = text.indexOf("\r\n\r\n");
  countSignatures(headerEnd >= 0 ? text.slice(0, headerEnd) : text);
  messages++;
  if (sampleDir && (messages <= SAMPLE_FIRST || messages % SAMPLE_EVERY === 0)) {
    // DATA's transparency dots come off, so the sample is the message as signed (RFC 5321 §4.5.2).
    const whole = dotStuffed ? text.replace(/^\./, "").replace(/\r\n\./g, "\r\n") : text;
    void Bun.write(`${sampleDir}/${s.spec.name}-${messages}.eml`, Buffer.from(whole, "latin1"));
  }
  const probe = /^Subject: probe-(\d+)/m.exec(text);
  if (probe) console.log(`probe ${probe[1]} ${performance.timeOrigin + performance.now()}`);
  s.body = [];
  s.rcpts = 0;
}

function command(socket: Bun.Socket<Session>, line: string) {
  const s = socket.data;
  const verb = line.slice(0, 4).toUpperCase();
  if (verb === "EHLO") reply(socket, "250-mx.bench.test\r\n250-PIPELINING\r\n250-8BITMIME\r\n250-SIZE 52428800\r\n250 CHUNKING");
  else if (verb === "HELO" || verb === "NOOP") reply(socket, "250 ok");
  else if (verb === "MAIL") {
    if (s.repliedAt) {
      const h = (gaps[s.spec.name] ??= new Array<number>(GAP_BUCKETS).fill(0));
      h[Math.min(GAP_BUCKETS - 1, Math.floor((performance.now() - s.repliedAt) / GAP_BUCKET_MS))]!++;
      s.repliedAt = 0;
    }
    s.rcpts = 0;
    reply(socket, "250 2.1.0 ok");
  }
  else if (verb === "RCPT") { s.rcpts++; reply(socket, "250 2.1.5 ok"); }
  else if (verb === "DATA") { s.mode = "data"; reply(socket, "354 go ahead"); }
  else if (verb === "BDAT") {
    const [, size, last] = line.split(/\s+/);
    s.mode = "bdat"; s.bdatLeft = Number(size); s.bdatLast = /^LAST$/i.test(last ?? "");
  } else if (verb === "RSET") { s.rcpts = 0; s.body = []; reply(socket, "250 ok"); }
  else if (verb === "QUIT") reply(socket, "221 bye", true);
  else reply(socket, "502 5.5.2 not implemented");
}

function consume(socket: Bun.Socket<Session>) {
  const s = socket.data;
  for (;;) {
    if (s.mode === "bdat") {
      const take = Math.min(s.bdatLeft, s.buf.length);
      s.body.push(s.buf.subarray(0, take));
      s.buf = s.buf.subarray(take);
      s.bdatLeft -= take;
      if (s.bdatLeft > 0) return;
      s.mode = "cmd";
      if (s.bdatLast) accepted(s, false);
      reply(socket, s.bdatLast ? "250 2.0.0 queued" : "250 2.0.0 chunk ok");
      continue;
    }
    if (s.mode === "data") {
      const end = s.buf.indexOf("\r\n.\r\n");
      if (end < 0) { if (s.buf.length > 5) { s.body.push(s.buf.subarray(0, s.buf.length - 5)); s.buf = s.buf.subarray(s.buf.length - 5); } return; }
      s.body.push(s.buf.subarray(0, end + 2));
      s.buf = s.buf.subarray(end + 5);
      s.mode = "cmd";
      accepted(s, true);
      reply(socket, "250 2.0.0 queued");
      continue;
    }
    const nl = s.buf.indexOf("\n");
    if (nl < 0) return;
    const line = s.buf.subarray(0, nl).toString("latin1").replace(/\r$/, "");
    s.buf = s.buf.subarray(nl + 1);
    command(socket, line);
  }
}

const handlers: Bun.SocketHandler<Session> = {
  open(socket) {
    const s = socket.data;
    const n = (open[s.spec.name] = (open[s.spec.name] ?? 0) + 1);
    opened[s.spec.name] = (opened[s.spec.name] ?? 0) + 1;
    if (n > (maxConnections[s.spec.name] ?? 0)) { maxConnections[s.spec.name] = n; changed = true; }
    if (s.spec.neverGreet) return;
    if (s.spec.maxConnections && n > s.spec.maxConnections) {
      refused[s.spec.name] = (refused[s.spec.name] ?? 0) + 1;
      reply(socket, "421 4.7.0 too many connections from your host, try again later", true);
      return;
    }
    reply(socket, "220 mx.bench.test ESMTP");
  },
  data(socket, chunk) {
    const s = socket.data;
    s.buf = s.buf.length ? Buffer.concat([s.buf, chunk]) : Buffer.from(chunk);
    consume(socket);
  },
  close(socket) { open[socket.data.spec.name]!--; },
  error() {},
};

for (const spec of specs) {
  const server = Bun.listen<Session>({ hostname: spec.host, port: 0, socket: {
    ...handlers,
    open(socket) { socket.data = { spec, buf: Buffer.alloc(0), mode: "cmd", bdatLeft: 0, bdatLast: false, rcpts: 0, body: [], repliedAt: 0 }; handlers.open!(socket); },
  } });
  console.log(`listening ${spec.name} ${server.port}`);
}
setInterval(() => {
  if (!changed) return;
  changed = false;
  const between = Object.fromEntries(Object.entries(gaps).map(([name, h]) => [name, gapStats(h)]));
  console.log(JSON.stringify({ received, maxConnections, refused, messages, signed, signatures, between, opened }));
}, 50);
