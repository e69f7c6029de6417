// What a resolver answers: the one interface every DNS user takes (src/dns.ts re-exports it).

export interface MxRecord {
  exchange: string;
  priority: number;
}

export interface Resolver {
  mx(name: string): Promise<MxRecord[]>;
  /** One entry per TXT record, holding that record's strings in order (join them to read it). */
  txt(name: string): Promise<string[][]>;
  a(name: string): Promise<string[]>;
  aaaa(name: string): Promise<string[]>;
  cname(name: string): Promise<string[]>;
  ptr?(name: string): Promise<string[]>;
}
