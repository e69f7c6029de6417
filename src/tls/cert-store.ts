// Where ACME's certificate and account key are kept: data_dir/tls, directory 0700 and files 0600,
// each written to a temporary file and renamed, so a crash never leaves half a key behind.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface KeyPair { cert: string; key: string }

export interface CertStore {
  loadCert(): Promise<KeyPair | null>;
  saveCert(pair: KeyPair): Promise<void>;
  loadAccountKey(): Promise<string | null>;
  saveAccountKey(pem: string): Promise<void>;
  /** Runs an order so that no other node orders at the same time (one process: at once). */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /** True when other nodes read and write the same store (they look at it more often). */
  shared: boolean;
}

export const tlsDir = (dataDir: string) => join(dataDir, "tls");

/** `certDir`: a subdirectory of data_dir/tls for the certificate (a tracking host's); the account key stays shared. */
export function createFileCertStore(dataDir: string, certDir = ""): CertStore {
  const root = tlsDir(dataDir);
  const dir = join(root, certDir);
  const path = (name: string) => join(name === "account.key" ? root : dir, name);
  const read = (name: string) => (existsSync(path(name)) ? readFileSync(path(name), "utf8") : null);
  const write = (name: string, text: string) => {
    const at = name === "account.key" ? root : dir;
    mkdirSync(at, { recursive: true, mode: 0o700 });
    chmodSync(root, 0o700);
    chmodSync(at, 0o700);
    const tmp = join(at, `.${name}.tmp`);
    writeFileSync(tmp, text, { mode: 0o600 });
    chmodSync(tmp, 0o600); // an existing temporary file keeps its old mode otherwise
    renameSync(tmp, path(name));
  };
  return {
    async loadCert() {
      const cert = read("cert.pem");
      const key = read("key.pem");
      return cert && key ? { cert, key } : null;
    },
    // The key first: a crash between the two leaves an old certificate with a new key, which the
    // provider sees as not matching and orders again, never a served mismatch.
    async saveCert(pair) { write("key.pem", pair.key); write("cert.pem", pair.cert); },
    loadAccountKey: async () => read("account.key"),
    saveAccountKey: async (pem) => write("account.key", pem),
    exclusive: (fn) => fn(),
    shared: false,
  };
}
