// What Linux says about a running process (/proc).
import { readFileSync } from "node:fs";

/** A process's environment as it was given at its (last) exec. */
export const environOf = (pid: number): Record<string, string> => Object.fromEntries(readFileSync(`/proc/${pid}/environ`, "latin1").split("\0")
  .filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]));

const MAIN = new URL("../../cli/main.ts", import.meta.url).pathname;

/** Starts `postern serve` from source on `file`; resolves once it prints its HTTP address. */
export async function spawnServe(file: string) {
  const proc = Bun.spawn(["bun", MAIN, "--config", file, "serve"], { stdout: "pipe", stderr: process.env.KEEP ? "inherit" : "ignore" });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let out = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`serve exited: ${out}`);
    out += new TextDecoder().decode(value);
    const m = /http (127\.0\.0\.1:\d+)/.exec(out);
    if (m) return { proc, url: `http://${m[1]}` };
  }
}
