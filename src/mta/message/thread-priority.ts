// Lowers the CPU priority of the calling thread (Linux: setpriority on its thread id, through libc
// with bun:ffi). The signing workers run below the main thread: when the cores are busy, the
// kernel runs the thread that answers HTTP requests and reads SMTP replies first, and signing
// takes the time left over. Elsewhere, or if libc cannot be opened, nothing changes.
const PRIO_PROCESS = 0;

/** Adds `niceness` to this thread's nice value; true when it did. */
export async function lowerThreadPriority(niceness: number): Promise<boolean> {
  if (process.platform !== "linux" || niceness <= 0) return false;
  try {
    const { dlopen, FFIType } = await import("bun:ffi");
    const { symbols: libc } = dlopen("libc.so.6", {
      gettid: { args: [], returns: FFIType.i32 },
      getpriority: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
      setpriority: { args: [FFIType.i32, FFIType.i32, FFIType.i32], returns: FFIType.i32 },
    });
    const tid = libc.gettid();
    return libc.setpriority(PRIO_PROCESS, tid, libc.getpriority(PRIO_PROCESS, tid) + niceness) === 0;
  } catch {
    return false;
  }
}
