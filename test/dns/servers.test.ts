import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nameserversOf, parseServer, serversFrom } from "../../src/dns/servers.ts";

describe("DNS servers", () => {
  test("host:port forms of [mta] dns_servers", () => {
    expect(parseServer("192.0.2.1")).toEqual({ host: "192.0.2.1", port: 53 });
    expect(parseServer("127.0.0.1:5353")).toEqual({ host: "127.0.0.1", port: 5353 });
    expect(parseServer("2001:db8::1")).toEqual({ host: "2001:db8::1", port: 53 });
    expect(parseServer("[::1]:5353")).toEqual({ host: "::1", port: 5353 });
  });

  test("resolv.conf nameservers when none are configured", () => {
    const text = "# generated\nsearch example.com\nnameserver 10.0.0.2\noptions ndots:2\n nameserver fe80::1%eth0\n";
    expect(nameserversOf(text)).toEqual([{ host: "10.0.0.2", port: 53 }, { host: "fe80::1", port: 53 }]);
    const file = join(mkdtempSync(join(tmpdir(), "resolv-")), "resolv.conf");
    writeFileSync(file, text);
    expect(serversFrom([], file)[0]).toEqual({ host: "10.0.0.2", port: 53 });
    expect(serversFrom(["127.0.0.1:1053"], file)).toEqual([{ host: "127.0.0.1", port: 1053 }]);
    expect(serversFrom([], join(file, "missing"))).toEqual([{ host: "127.0.0.1", port: 53 }]);
  });
});
