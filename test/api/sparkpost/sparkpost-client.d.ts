// The `sparkpost` 2.x client ships no types (and @types/sparkpost is not installed): just enough
// of its surface for the tests.
declare module "sparkpost" {
  type Cb = (err: unknown, body: unknown) => void;
  type Opts = { uri: string; json?: unknown; qs?: Record<string, unknown> };
  class SparkPost {
    constructor(key: string, opts?: { origin?: string; endpoint?: string; headers?: Record<string, string>; debug?: boolean });
    get(o: Opts, cb?: Cb): Promise<any>;
    post(o: Opts, cb?: Cb): Promise<any>;
    put(o: Opts, cb?: Cb): Promise<any>;
    delete(o: Opts, cb?: Cb): Promise<any>;
    transmissions: { send(t: unknown, qs?: unknown): Promise<any>; list(qs?: unknown): Promise<any>; get(id: string): Promise<any> };
    sendingDomains: { list(): Promise<any>; get(d: string): Promise<any>; create(o: unknown): Promise<any>; update(d: string, o: unknown): Promise<any>;
      delete(d: string): Promise<any>; verify(d: string, o: unknown): Promise<any> };
    webhooks: { list(o?: unknown): Promise<any>; get(id: string, o?: unknown): Promise<any>; create(w: unknown): Promise<any>;
      update(id: string, w: unknown): Promise<any>; delete(id: string): Promise<any>; validate(id: string, o: unknown): Promise<any>;
      getBatchStatus(id: string, o?: unknown): Promise<any>; getDocumentation(): Promise<any>; getSamples(o?: unknown): Promise<any> };
    inboundDomains: { list(): Promise<any>; get(d: string): Promise<any>; create(o: unknown): Promise<any>; delete(d: string): Promise<any> };
    relayWebhooks: { list(): Promise<any>; get(id: string): Promise<any>; create(o: unknown): Promise<any>; update(id: string, o: unknown): Promise<any>;
      delete(id: string): Promise<any> };
    templates: { list(): Promise<any>; get(id: string, o?: unknown): Promise<any>; create(t: unknown): Promise<any>;
      update(id: string, t: unknown, o?: unknown): Promise<any>; delete(id: string): Promise<any>; preview(id: string, o?: unknown): Promise<any> };
    recipientLists: { list(): Promise<any>; get(id: string, o?: unknown): Promise<any>; create(l: unknown): Promise<any>;
      update(id: string, l: unknown): Promise<any>; delete(id: string): Promise<any> };
    suppressionList: { list(qs?: unknown): Promise<any>; get(email: string): Promise<any>; upsert(e: unknown): Promise<any>; delete(email: string): Promise<any> };
    subaccounts: { list(): Promise<any>; get(id: string): Promise<any>; create(s: unknown): Promise<any>; update(id: string, s: unknown): Promise<any> };
  }
  export = SparkPost;
}
