// A counting SMTP sink for benchmarks, run as its own process so its CPU is not the MTA's:
// prints its port, then "received N" lines as messages arrive.
import { SMTPServer } from "smtp-server";

let received = 0;
let reported = 0;
const sink = new SMTPServer({ authOptional: true, disabledCommands: ["AUTH", "STARTTLS"], logger: false,
  onData(stream, _s, cb) { stream.on("data", () => {}); stream.on("end", () => { received++; cb(); }); } });
sink.on("error", () => {});
sink.listen(0, "127.0.0.1", () => console.log(`port ${(sink.server.address() as { port: number }).port}`));
setInterval(() => { if (received !== reported) { reported = received; console.log(`received ${received}`); } }, 20);
