// The counting SMTP sink (bench/sink.ts) in a process of its own, so its CPU is not the server's:
// it prints "port N" once and "received N" as mail arrives.
export interface Sink { port: number; received: () => number; stop(): void }

export async function startSinkProcess(): Promise<Sink> {
  const proc = Bun.spawn(["bun", new URL("./sink.ts", import.meta.url).pathname], { stdout: "pipe" });
  let received = 0;
  const port = await new Promise<number>((resolve) => {
    void (async () => {
      let buf = "";
      for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
        buf += new TextDecoder().decode(chunk);
        for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (line.startsWith("port ")) resolve(Number(line.slice(5)));
          if (line.startsWith("received ")) received = Number(line.slice(9));
        }
      }
    })();
  });
  return { port, received: () => received, stop: () => proc.kill() };
}
