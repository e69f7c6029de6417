// Tracking hosts end to end without TLS: real dnsmasq answers for the hosts, mail is sent through
// the SendGrid surface and delivered to a real SMTP sink, and the links read from the delivered
// message are followed on the real HTTP listener with the tracking host as Host.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import PostalMime from "postal-mime";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";
import { startDnsmasq, type DnsmasqServer } from "../helpers/dnsmasq.ts";
import { createSystemResolver } from "../../src/dns.ts";
import { serverAddresses } from "../../src/core/server-addresses.ts";

const PUBLIC = "http://mail.example.test:8025";
let t: TestApp;
let sink: Sink;
let dns: DnsmasqServer;
let listening = "";

beforeAll(async () => {
  dns = await startDnsmasq([
    { type: "A", name: "mta.test", value: "127.0.0.1" },
    { type: "CNAME", name: "email.good.test", value: "mta.test" },
    { type: "A", name: "links.good.test", value: "198.51.100.7" },
    { type: "CNAME", name: "go.good.test", value: "mta.test" },
  ]);
  sink = await startSink();
  t = await makeTestApp({ domain: "good.test", publicUrl: PUBLIC, resolver: createSystemResolver([dns.server]),
    toml: `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
  listening = (await t.app.start()).http!;
}, 30_000);
afterAll(async () => { await t?.close(); await sink?.close(); await dns?.stop(); });

let n = 0;
/** Sends one tracked message through the SendGrid surface and returns the hrefs of the delivered HTML. */
async function deliveredLinks(): Promise<{ hrefs: string[]; headers: string }> {
  const to = `r${++n}@dest.test`;
  const res = await t.app.http(new Request("http://127.0.0.1/v3/mail/send", { method: "POST", headers: { authorization: `Bearer ${t.domainKey}`,
    "content-type": "application/json" }, body: JSON.stringify({ personalizations: [{ to: [{ email: to }] }], from: { email: "news@good.test" }, subject: "s",
    content: [{ type: "text/html", value: '<html><body><a href="https://shop.example.org/sale">sale</a></body></html>' }],
    tracking_settings: { click_tracking: { enable: true }, open_tracking: { enable: true } } }) }));
  expect(res.status).toBe(202);
  for (let i = 0; i < 400 && !sink.messages.some((m) => m.to.includes(to)); i++) await Bun.sleep(25);
  const raw = sink.messages.find((m) => m.to.includes(to))!.raw;
  const mail = await PostalMime.parse(raw);
  return { hrefs: [...(mail.html ?? "").matchAll(/(?:href|background)="([^"]+)"/g)].map((m) => m[1]!), headers: raw.toString("latin1").split("\r\n\r\n")[0]! };
}

/** Follows a link on the real listener: the socket is this server's, the Host header the link's own. */
const follow = (link: string) => {
  const u = new URL(link);
  return fetch(`http://${listening}${u.pathname}${u.search}`, { headers: { host: u.host }, redirect: "manual" });
};

describe("a domain's own tracking host", () => {
  test("this server's addresses: mta.hostname's A (and the egress sources' addresses)", async () => {
    const resolver = createSystemResolver([dns.server]);
    expect(await serverAddresses({ egressAddresses: ["192.0.2.10"], mtaHostname: "mta.test", resolver })).toEqual(["192.0.2.10", "127.0.0.1"]);
    expect(await serverAddresses({ egressAddresses: [], mtaHostname: "mta.test", resolver, publicAddresses: ["2001:DB8:0:0::1"] })).toEqual(["2001:db8::1"]);
  });

  test("the server checks every host when it starts (and then on its tick), without being asked", async () => {
    let v = await t.app.trackingHosts.get("good.test");
    for (let i = 0; i < 100 && v.state === "pending"; i++, v = await t.app.trackingHosts.get("good.test")) await Bun.sleep(50);
    expect(v).toMatchObject({ state: "resolving", note: "resolves to this server" });
    expect((await t.app.domains.require("good.test")).tracking?.changedAt).toBeGreaterThan(0);
  });

  let oldClick = "";
  test("domain set --tracking-host: accepted before its record exists; until it resolves here new mail's links use public_url", async () => {
    await t.app.trackingHosts.checkAll(); // the server's own first check (started with it) is over
    const set = await t.app.trackingHosts.set("good.test", "Links.Good.Test.");
    expect(set).toMatchObject({ host: "links.good.test", isDefault: false, state: "pending", linkBase: PUBLIC });
    expect((await t.app.domains.records("good.test")).find((r) => r.purpose === "tracking")).toMatchObject({ name: "links.good.test", type: "CNAME", value: "mail.example.test" });
    await t.app.trackingHosts.checkAll();
    expect(await t.app.trackingHosts.get("good.test")).toMatchObject({ state: "pending", note: "resolves to 198.51.100.7, not this server (127.0.0.1)" });
    const before = await deliveredLinks();
    // The click, the open pixel and the honeypot link.
    expect(before.hrefs.length).toBe(3);
    for (const h of before.hrefs) expect(h.startsWith(`${PUBLIC}/`)).toBe(true);
    oldClick = before.hrefs.find((h) => h.includes("/t/c/"))!;

    await t.app.trackingHosts.set("good.test", "nowhere.good.test");
    expect((await t.app.trackingHosts.check("good.test"))).toMatchObject({ host: "nowhere.good.test", state: "pending", note: "no A/AAAA record" });
  }, 30_000);

  test("once email.<domain> resolves here, new mail's links and pixels use it; earlier links keep working", async () => {
    // Back to the default: the state starts over and the check finds it resolving.
    expect(await t.app.trackingHosts.set("good.test", "")).toMatchObject({ host: "email.good.test", isDefault: true, state: "pending", linkBase: PUBLIC });
    await t.app.trackingHosts.checkAll();
    expect(await t.app.trackingHosts.get("good.test")).toMatchObject({ state: "resolving", note: "resolves to this server", linkBase: "http://email.good.test:8025" });
    const after = await deliveredLinks();
    expect(after.hrefs.length).toBe(3);
    expect(after.hrefs.every((h) => h.startsWith("http://email.good.test:8025/"))).toBe(true);
    const click = after.hrefs.find((h) => h.includes("/t/c/"))!;
    expect(click).toStartWith("http://email.good.test:8025/t/c/");
    expect(after.hrefs.find((h) => h.includes("/t/o/"))).toStartWith("http://email.good.test:8025/t/o/");

    // The link works on the domain's host, and so does the earlier mail's link on public_url's.
    const res = await follow(click);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://shop.example.org/sale");
    const old = await follow(oldClick);
    expect(old.status).toBe(302);
    expect(old.headers.get("location")).toBe("https://shop.example.org/sale");
    // The host is not part of the token: the same path answers on any host.
    expect((await follow(click.replace("email.good.test", "unrelated.example"))).status).toBe(302);
  }, 30_000);

  test("a host is refused when it is not a host name or already another domain's", async () => {
    await t.app.domains.add("other.test");
    await expect(t.app.trackingHosts.set("other.test", "email.good.test")).rejects.toMatchObject({ code: "conflict" });
    await expect(t.app.trackingHosts.set("other.test", "not a host")).rejects.toMatchObject({ code: "invalid" });
    await expect(t.app.trackingHosts.set("missing.test", "x.missing.test")).rejects.toMatchObject({ code: "not_found" });
    expect(await t.app.trackingHosts.byHost("EMAIL.good.test.")).toMatchObject({ domain: "good.test" });
    expect(await t.app.trackingHosts.byHost("none.test")).toBeNull();
  });

  test("a host set just before sending is checked when the mail is built: that very mail uses it (no wait for the tick)", async () => {
    expect(await t.app.trackingHosts.set("good.test", "go.good.test")).toMatchObject({ state: "pending", note: "" });
    const links = await deliveredLinks();
    expect(links.hrefs.every((h) => h.startsWith("http://go.good.test:8025/"))).toBe(true);
    expect(await t.app.trackingHosts.get("good.test")).toMatchObject({ host: "go.good.test", state: "resolving" });
  }, 30_000);
});
