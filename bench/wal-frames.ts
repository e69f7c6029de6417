// Where the bytes go: traces a running server's writes to its write-ahead logs for a few seconds
// (strace, pwrite64 of the 24-byte frame headers: page number and the commit mark) and counts the
// frames by the table or index that owns each page (dbstat, read at the end), and the commits.
// Run it beside a soak (bench/soak.ts prints the server's pid and data directory):
//
//   bun bench/wal-frames.ts PID DATA_DIR [SECONDS=10]
//
// strace slows the server down while it is attached: read the proportions, not the rates.
import { Database } from "bun:sqlite";
import { join } from "node:path";

const [pid, dataDir, seconds = "10"] = process.argv.slice(2);
if (!pid || !dataDir) { console.error("usage: bun bench/wal-frames.ts PID DATA_DIR [SECONDS]"); process.exit(2); }

const strace = Bun.spawn(["timeout", "-s", "INT", seconds, "strace", "-f", "-qq", "-p", pid, "-e", "trace=pwrite64", "-y", "-xx", "-s", "24"],
  { stdout: "ignore", stderr: "pipe" });
const text = await new Response(strace.stderr).text();
await strace.exited;

/** Per file: frames by page number, and commits. */
const files = new Map<string, { pages: Map<number, number>; frames: number; commits: number; mainBytes: number }>();
const of = (f: string) => files.get(f) ?? files.set(f, { pages: new Map(), frames: 0, commits: 0, mainBytes: 0 }).get(f)!;
for (const line of text.split("\n")) {
  const m = /pwrite64\(\d+<([^>]+)>, "((?:\\x[0-9a-f]{2})*)"(?:\.\.\.)?, (\d+), \d+\)/.exec(line);
  if (!m) continue;
  const [, rawPath, hex, len] = m;
  const path = rawPath!.includes("\\x") ? Buffer.from(rawPath!.replaceAll("\\x", ""), "hex").toString() : rawPath;
  if (path!.endsWith(".sqlite")) { of(path!).mainBytes += Number(len); continue; }
  if (!path!.endsWith(".sqlite-wal") || len !== "24") continue;
  const bytes = Buffer.from(hex!.replaceAll("\\x", ""), "hex");
  const f = of(path!.slice(0, -4));
  const page = bytes.readUInt32BE(0);
  f.pages.set(page, (f.pages.get(page) ?? 0) + 1);
  f.frames++;
  if (bytes.readUInt32BE(4) !== 0) f.commits++;
}

for (const [path, f] of files) {
  if (!f.frames && !f.mainBytes) continue;
  const db = new Database(path.startsWith("/") ? path : join(dataDir, path), { readonly: true });
  const owner = new Map<number, string>();
  for (const r of db.query("SELECT name, pageno FROM dbstat").all() as { name: string; pageno: number }[]) owner.set(r.pageno, r.name);
  db.close();
  const byName = new Map<string, { frames: number; pages: number }>();
  for (const [page, n] of f.pages) {
    const name = owner.get(page) ?? "(free or new)";
    const e = byName.get(name) ?? byName.set(name, { frames: 0, pages: 0 }).get(name)!;
    e.frames += n;
    e.pages++;
  }
  console.log(`\n${path}: ${f.frames} frames in ${f.commits} commits (${(f.frames / Math.max(1, f.commits)).toFixed(1)} a commit), ` +
    `${(f.mainBytes / 1024 / 1024).toFixed(1)} MB written to the database file (checkpoints)`);
  console.log("  frames   share  distinct pages  table or index");
  for (const [name, e] of [...byName].sort((a, b) => b[1].frames - a[1].frames)) {
    console.log(`${String(e.frames).padStart(8)} ${((100 * e.frames) / f.frames).toFixed(1).padStart(6)} % ${String(e.pages).padStart(14)}  ${name}`);
  }
}
