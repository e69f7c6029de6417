// `postern serve` runs JavaScriptCore tuned for a small, busy server. JSC reads its options from the
// environment at start only, so the process replaces itself once (execve: same pid, same stdio)
// with the missing ones set, before anything else is loaded. Measured with bench/mta.ts on the
// compiled binary (what install.sh installs), 2 cores, 10,000 messages:
// - forceRAMSize 512 MiB: JSC otherwise lets the heap grow with the RAM it sees before collecting
//   (on a 24 GB host the server peaked at 220-240 MB from source and 269 MB as the binary, with a
//   live heap under 30 MB).
// - useFTLJIT off: the top tier's compiles cost more CPU than they save here (the hot path is
//   SQLite, sockets and OpenSSL): 1.12-1.19 ms of CPU per message against 1.20-1.26, 5 MB less.
// - smallHeapGrowthFactor 1.75 (JSC's default is 2 below a quarter of the RAM): the heap grows
//   less past its live size between collections: peak RSS 164-165 MB against 189-191, the same
//   CPU per message.
// Sizing hints, not limits. Imported first by cli/main.ts, from source and in the compiled binary;
// an option already in the environment is left alone, and a failed execve runs on untuned.
import { dlopen, FFIType, ptr } from "bun:ffi";
import { join } from "node:path";

export const JSC_OPTIONS: Readonly<Record<string, string>> = {
  BUN_JSC_forceRAMSize: String(512 * 1024 * 1024),
  BUN_JSC_useFTLJIT: "0",
  BUN_JSC_smallHeapGrowthFactor: "1.75",
};

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
  // Returns only on failure; then the server runs on with the default options.
  libc.symbols.execve(ptr(file), ptr(a.pointers), ptr(e.pointers));
  libc.close();
}

/**
 * The argv that starts this same program again: `bun [flags] cli/main.ts ...` from source, or the
 * compiled binary (its code lives under /$bunfs) with its own arguments. Null when something else
 * is running (`bun test`, a script importing the CLI).
 */
export function selfArgv(main: string, argv: string[], execPath: string, execArgv: string[], dir: string): string[] | null {
  if (main.startsWith("/$bunfs/") && dir.startsWith("/$bunfs/")) return [execPath, ...argv.slice(2)];
  if (main === join(dir, "main.ts") && argv[1] === main) return [execPath, ...execArgv, ...argv.slice(1)];
  return null;
}

/** The options not yet in `env` (empty: tuned already, or every one chosen by the user). */
export function missingOptions(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(JSC_OPTIONS).filter(([k]) => env[k] === undefined));
}

const again = selfArgv(Bun.main, process.argv, process.execPath, process.execArgv, import.meta.dir);
const missing = missingOptions(process.env);
if (again && process.argv.slice(2).includes("serve") && Object.keys(missing).length > 0) {
  try {
    const env = Object.entries({ ...process.env, ...missing }).map(([k, v]) => `${k}=${v ?? ""}`);
    execve(process.execPath, again, env);
  } catch { /* no libc through FFI: default options */ }
}
