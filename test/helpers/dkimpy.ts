// An independent DKIM verifier: Debian's python3-dkim (dkimpy), with the DNS answers given by the
// test instead of looked up. Returns one verdict per DKIM-Signature, top first.
const SCRIPT = `
import sys, json, os, dkim
records = json.loads(os.environ["DKIM_RECORDS"])
def dns(name, timeout=5):
    n = (name.decode() if isinstance(name, bytes) else name).rstrip(".")
    return records.get(n, "").encode()
msg = sys.stdin.buffer.read()
d = dkim.DKIM(msg)
count = sum(1 for k, _ in d.headers if k.lower() == b"dkim-signature")
def check(i):
    try:
        return bool(d.verify(idx=i, dnsfunc=dns))
    except dkim.ValidationError:
        return False
print(json.dumps([check(i) for i in range(count)]))
`;

/** Verifies every signature of `raw` with dkimpy; `records` maps "<selector>._domainkey.<domain>" to its TXT value. */
export async function dkimpyVerify(raw: Uint8Array, records: Record<string, string>): Promise<boolean[]> {
  const proc = Bun.spawn(["/usr/bin/python3", "-c", SCRIPT], { stdin: "pipe", stdout: "pipe", stderr: "pipe", env: { ...process.env, DKIM_RECORDS: JSON.stringify(records) } });
  proc.stdin.write(raw);
  await proc.stdin.end();
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`python3-dkim failed (is python3-dkim installed?): ${err.trim()}`);
  return JSON.parse(out) as boolean[];
}
