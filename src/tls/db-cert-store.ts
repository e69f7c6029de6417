// The certificate store of nodes sharing PostgreSQL: the same items as data_dir/tls, kept in the
// control database (the port's TlsStateStore), so every node serves the same certificate, and
// orders run under the database's TLS lock so one node orders at a time.
import type { TlsStateStore } from "../core/store-port.ts";
import type { CertStore } from "./cert-store.ts";

/** `certPrefix`: where the certificate's items are named ("hosts/<host>/" for a tracking host); the account key is shared. */
export function createDbCertStore(state: TlsStateStore, now: () => number, certPrefix = ""): CertStore {
  return {
    async loadCert() {
      const [cert, key] = await Promise.all([state.getTlsItem(`${certPrefix}cert.pem`), state.getTlsItem(`${certPrefix}key.pem`)]);
      return cert && key ? { cert, key } : null;
    },
    // Key first: a node reading between the two writes sees a pair that does not match and waits.
    async saveCert(pair) { await state.putTlsItem(`${certPrefix}key.pem`, pair.key, now()); await state.putTlsItem(`${certPrefix}cert.pem`, pair.cert, now()); },
    loadAccountKey: () => state.getTlsItem("account.key"),
    saveAccountKey: (pem) => state.putTlsItem("account.key", pem, now()),
    exclusive: (fn) => state.withTlsLock(fn),
    shared: true,
  };
}
