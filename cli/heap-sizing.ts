// `postern serve` runs with JavaScriptCore's heap sized for a 512 MiB machine, whatever the machine
// has. JSC lets the heap grow with the RAM it sees before collecting: on a 24 GB host the server
// peaked at 220-240 MB RSS through bench/mta.ts, with a live heap under 30 MB; sized for 512 MiB it
// peaks at about 190 MB with no measurable change in CPU per message. It is a sizing heuristic, not
// a limit (a bigger live heap still grows). JSC reads it from the environment at start only, so the
// process replaces itself once (execve: same pid, same stdio) before anything else is loaded.
// Imported first by cli/main.ts; an explicit BUN_JSC_forceRAMSize (or a failed execve) is left alone.
import { dlopen, FFIType, ptr } from "bun:ffi";
import { join } from "node:path";

const VARIABLE = "BUN_JSC_forceRAMSize";
const RAM_BYTES = 512 * 1024 * 1024;

function execve(path: string, argv: string[], env: string[]): void {
  const libc = dlopen(process.platform === "darwin" ? "libc.dylib" : "libc.so.6", {
    execve: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
  });
  const cstr = (s: string) => Buffer.from(`${s}\0`);
  const list = (items: string[]) => {
    const strings = items.map(cstr);
    const pointers = new BigUint64Array(strings.length + 1);
    strings.forEach((s, i) => { pointers[i] = BigInt(ptr(s)); });
    return { strings, pointers };
  };
  const file = cstr(path);
  const a = list(argv);
  const e = list(env);
  // Returns only on failure; then the server runs on with the default sizing.
  libc.symbols.execve(ptr(file), ptr(a.pointers), ptr(e.pointers));
  libc.close();
}

const args = process.argv.slice(2);
// Only when cli/main.ts is the program (not under `bun test`, not in a compiled binary).
if (Bun.main === join(import.meta.dir, "main.ts") && process.argv[1] === Bun.main && args.includes("serve") && process.env[VARIABLE] === undefined) {
  try {
    const env = Object.entries({ ...process.env, [VARIABLE]: String(RAM_BYTES) }).map(([k, v]) => `${k}=${v ?? ""}`);
    execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], env);
  } catch { /* no libc through FFI: default sizing */ }
}
