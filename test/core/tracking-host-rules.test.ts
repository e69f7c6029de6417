// The pure rules of tracking hosts: the default host, a check's verdict, and links' base by state
// and by how postern listens.
import { describe, expect, test } from "bun:test";
import { judgeTrackingHost, linkBaseOf, linkOrigins, trackingHostOf, type TrackingState } from "../../src/core/tracking-host-rules.ts";

const domain = (state: TrackingState, host = "") => ({ name: "example.test", tracking: { host, state, note: "", changedAt: 0 } });

describe("the host", () => {
  test("email.<domain> by default, the domain's own when set", () => {
    expect(trackingHostOf({ name: "example.test" })).toBe("email.example.test");
    expect(trackingHostOf(domain("pending", "links.example.test"))).toBe("links.example.test");
  });
});

describe("a check's verdict", () => {
  const ours = ["192.0.2.1", "2001:db8::1"];
  test.each([
    [["192.0.2.1"], false, "pending", "resolving"],
    [["2001:db8::1"], true, "pending", "https"],
    [["198.51.100.7"], true, "https", "pending"],
    [[], false, "resolving", "pending"],
  ] as const)("answer %p, certificate %p, was %p: %p", (found, certificateValid, previous, state) => {
    expect(judgeTrackingHost({ found: [...found], ours, certificateValid, previous }).state).toBe(state);
  });
  test("a failed lookup keeps the state it had and says why", () => {
    expect(judgeTrackingHost({ found: null, cause: "ETIMEOUT", ours, certificateValid: true, previous: "https" }))
      .toEqual({ state: "https", note: "DNS lookup failed (ETIMEOUT); state kept" });
  });
  test("the note names what the host resolves to and this server's addresses", () => {
    expect(judgeTrackingHost({ found: ["198.51.100.7"], ours, certificateValid: false, previous: "pending" }).note)
      .toBe("resolves to 198.51.100.7, not this server (192.0.2.1, 2001:db8::1)");
    expect(judgeTrackingHost({ found: [], ours, certificateValid: false, previous: "pending" }).note).toBe("no A/AAAA record");
  });
});

describe("the base of links", () => {
  const plain = linkOrigins({ publicUrl: "http://mail.example.test:8025/", tlsOn: false, listen: "0.0.0.0:8025", httpListen: "" });
  const tls = linkOrigins({ publicUrl: "https://mail.example.test", tlsOn: true, listen: "0.0.0.0:443", httpListen: "0.0.0.0:80" });
  const tlsNoHttp = linkOrigins({ publicUrl: "https://mail.example.test:8443", tlsOn: true, listen: "0.0.0.0:8443", httpListen: "" });
  const proxied = linkOrigins({ publicUrl: "https://mail.example.test", tlsOn: false, listen: "127.0.0.1:8025", httpListen: "" });
  test.each([
    [plain, "pending", "http://mail.example.test:8025"],
    [plain, "resolving", "http://email.example.test:8025"],
    [plain, "https", "http://email.example.test:8025"],
    [tls, "pending", "https://mail.example.test"],
    [tls, "resolving", "http://email.example.test"],
    [tls, "https", "https://email.example.test"],
    [tlsNoHttp, "resolving", "https://mail.example.test:8443"],
    [tlsNoHttp, "https", "https://email.example.test:8443"],
    [proxied, "resolving", "https://email.example.test"],
  ] as const)("%#: %p", (origins, state, base) => {
    expect(linkBaseOf(domain(state), origins)).toBe(base);
  });
  test("TLS with public_url still on http: https links on the listener's port", () => {
    const o = linkOrigins({ publicUrl: "http://mail.example.test:8025", tlsOn: true, listen: "0.0.0.0:8443", httpListen: "0.0.0.0:8080" });
    expect(linkBaseOf(domain("https"), o)).toBe("https://email.example.test:8443");
    expect(linkBaseOf(domain("resolving"), o)).toBe("http://email.example.test:8080");
  });
});
