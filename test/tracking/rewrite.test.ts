// Send-time tracking rewrite: pixel placement, link rewriting edge cases, text links, RFC 8058
// headers, the honeypot link, the prepared template, and a timing run on a 50 KB message.
import { describe, expect, test } from "bun:test";
import { findTextLinks, scanHtml } from "../../src/tracking/links.ts";
import { applyTracking, prepareTracking, type TrackingOptions } from "../../src/tracking/rewrite.ts";
import { createTokenCodec, type TrackingPayload } from "../../src/tracking/token.ts";

const PUBLIC_URL = "https://track.example.com";
const codec = createTokenCodec("rewrite-test-secret");
const OFF = { opens: false, clicks: false, unsubscribe: false, honeypot: false } as const;
const base: TrackingOptions = {
  publicUrl: PUBLIC_URL,
  domain: "example.com",
  messageId: "msg_1",
  recipientId: "rcpt_1",
  codec,
  ...OFF,
};

function clicks(html: string, extra: Partial<TrackingOptions> = {}): string {
  return applyTracking({ html, headers: {} }, { ...base, clicks: true, ...extra }).html ?? "";
}

/** Every token of one URL kind (`o`, `c`, `u`) in the output, verified. */
function tokens(out: string, kind: "o" | "c" | "u"): (TrackingPayload | null)[] {
  const re = new RegExp(`${PUBLIC_URL}/t/${kind}/([A-Za-z0-9_-]+)`, "g");
  return [...out.matchAll(re)].map((m) => codec.verify(m[1]!));
}

describe("open pixel", () => {
  test("goes right before </body>", () => {
    const src = "<html><body><p>Hi</p></BODY></html>";
    const html = applyTracking({ html: src, headers: {} }, { ...base, opens: true }).html!;
    // A 1x1 background image in a table cell, not an <img> (SpamAssassin's HTML_IMAGE_ONLY_*).
    const pixel = '<table role="presentation"[^>]*><tr><td background="https://track\\.example\\.com/t/o/[A-Za-z0-9_-]+" width="1" height="1"[^>]*></td></tr></table>';
    expect(html).toMatch(new RegExp(`^<html><body><p>Hi</p>${pixel}</BODY></html>$`));
    expect(tokens(html, "o")).toEqual([{ kind: "open", messageId: "msg_1", recipientId: "rcpt_1", domain: "example.com" }]);
  });

  test("is appended to a fragment without </body>", () => {
    const html = applyTracking({ html: "<p>Hi</p>", headers: {} }, { ...base, opens: true }).html!;
    expect(html.startsWith("<p>Hi</p><table role=\"presentation\"")).toBe(true);
    expect(html.endsWith("</table>")).toBe(true);
    expect(html).not.toContain("<img");
  });

  test("ignores a </body> inside a comment or a script and uses the real one", () => {
    const src = "<body><!-- </body> --><script>var s='</body>'</script><p>x</p></body>";
    const html = applyTracking({ html: src, headers: {} }, { ...base, opens: true }).html!;
    expect(html.indexOf("<table")).toBe(src.lastIndexOf("</body>"));
  });

  test("replaces the SendGrid substitution tag, once", () => {
    const src = "<body><p>top %open%</p><p>again %open%</p></body>";
    const html = applyTracking({ html: src, headers: {} }, { ...base, opens: true, openSubstitutionTag: "%open%" }).html!;
    // Inline, where the tag sits: a span with a CSS background image.
    expect(html).toMatch(/^<body><p>top <span style="[^"]*background-image:url\(https:\/\/track\.example\.com\/t\/o\/[A-Za-z0-9_-]+\)[^"]*"><\/span><\/p><p>again <\/p><\/body>$/);
  });

  test("removes the substitution tag when opens are off", () => {
    const html = applyTracking({ html: "<p>a%open%b</p>", headers: {} }, { ...base, openSubstitutionTag: "%open%" }).html;
    expect(html).toBe("<p>ab</p>");
  });

  test("leaves text-only mail and disabled tracking untouched", () => {
    const out = applyTracking({ text: "Hi https://a.example/x", headers: { "X-A": "1" } }, { ...base, opens: true, honeypot: true });
    expect(out).toEqual({ text: "Hi https://a.example/x", headers: { "X-A": "1" } });
    expect(applyTracking({ html: "<p>x</p>", headers: {} }, base).html).toBe("<p>x</p>");
  });
});

describe("click rewriting", () => {
  const trackedHref = /href\s*=\s*"https:\/\/track\.example\.com\/t\/c\/[A-Za-z0-9_-]+"/i;

  test.each([
    ["double quotes", '<a href="https://a.example/x">x</a>'],
    ["single quotes", "<a href='https://a.example/x'>x</a>"],
    ["unquoted", "<a href=https://a.example/x>x</a>"],
    ["uppercase tag and attribute", '<A HREF="https://a.example/x">x</A>'],
    ["spaces around =", '<a href = "https://a.example/x">x</a>'],
    ["surrounding whitespace in the value", '<a href="  https://a.example/x\n">x</a>'],
  ])("rewrites %s and signs the original URL", (_name, src) => {
    const out = clicks(src);
    expect(out.replace(/'/g, '"')).toMatch(trackedHref);
    expect(tokens(out, "c")).toEqual([
      { kind: "click", messageId: "msg_1", recipientId: "rcpt_1", domain: "example.com", url: "https://a.example/x", linkIndex: 0 },
    ]);
  });

  test("keeps the rest of the tag and the quote style", () => {
    const out = clicks(`<a class="btn" href='https://a.example/x' target=_blank style="color:red">Go</a>`);
    expect(out).toMatch(/^<a class="btn" href='https:\/\/track\.example\.com\/t\/c\/[A-Za-z0-9_-]+' target=_blank style="color:red">Go<\/a>$/);
  });

  test("decodes entities in href before signing", () => {
    const out = clicks('<a href="https://a.example/p?a=1&amp;b=2&#38;c=3&#x26;d=&lt;4&gt;&copy=5">x</a>');
    expect(tokens(out, "c")[0]?.url).toBe("https://a.example/p?a=1&b=2&c=3&d=<4>&copy=5");
  });

  test.each([
    ["mailto:", '<a href="mailto:a@example.com">m</a>'],
    ["tel:", '<a href="tel:+15551234">t</a>'],
    ["#anchor", '<a href="#top">t</a>'],
    ["cid:", '<a href="cid:logo@x">c</a>'],
    ["relative", '<a href="/path">r</a>'],
    ["javascript:", '<a href="javascript:alert(1)">j</a>'],
    ["already tracked", `<a href="${PUBLIC_URL}/t/c/abc">t</a>`],
    ["publicUrl in other case", '<a href="HTTPS://TRACK.example.com/x">t</a>'],
    ["clicktracking=off", '<a clicktracking=off href="https://a.example/x">x</a>'],
    ['clicktracking="OFF"', '<a href="https://a.example/x" clicktracking="OFF">x</a>'],
    ["data-postern-notrack", '<a data-postern-notrack href="https://a.example/x">x</a>'],
    ["the sender's own honeypot", '<a href="https://email.example.com/m1/hclick"></a>'],
    ["inside a comment", '<!-- <a href="https://a.example/x">x</a> -->'],
    ["inside a style element", '<style>a[href="https://a.example/x"]{}</style><a>no href</a>'],
    ["a link-like attribute of another tag", '<link href="https://a.example/x.css"><div data-href="https://a.example/">'],
    ["a URL longer than 4096 characters", `<a href="https://a.example/${"x".repeat(4100)}">x</a>`],
  ])("leaves %s untouched", (_name, src) => {
    expect(clicks(src)).toBe(src);
  });

  test("rewrites links in Outlook conditional comments and numbers links in order", () => {
    const src =
      '<!--[if mso]><a href="https://a.example/1">1</a><![endif]-->' +
      '<!--[if !mso]><!--><a href="https://a.example/2">2</a><!--<![endif]-->' +
      '<a href="https://a.example/1">1 again</a>';
    const out = clicks(src);
    expect(tokens(out, "c").map((t) => [t?.url, t?.linkIndex])).toEqual([
      ["https://a.example/1", 0],
      ["https://a.example/2", 1],
      ["https://a.example/1", 2],
    ]);
    expect(out.replace(/\/t\/c\/[A-Za-z0-9_-]+/g, "/t/c/T")).toBe(src.replace(/https:\/\/a\.example\/\d/g, `${PUBLIC_URL}/t/c/T`));
  });

  test("does not break on unterminated markup", () => {
    for (const src of ['<a href="https://a.example/x', "<a href=", "<!-- open", "<style>", "a < b and <", "</"]) {
      expect(() => clicks(src, { opens: true })).not.toThrow();
    }
  });
});

describe("text part links", () => {
  const text = "See https://a.example/x. Docs (https://en.example/wiki/Foo_(bar)) and <https://b.example/y>, mail a@b.example.";

  test("are rewritten only with clickText", () => {
    expect(applyTracking({ text, headers: {} }, { ...base, clicks: true }).text).toBe(text);
    const out = applyTracking({ text, headers: {} }, { ...base, clicks: true, clickText: true }).text!;
    expect(tokens(out, "c").map((t) => t?.url)).toEqual([
      "https://a.example/x",
      "https://en.example/wiki/Foo_(bar)",
      "https://b.example/y",
    ]);
    expect(out.replace(/\/t\/c\/[A-Za-z0-9_-]+/g, "/t/c/T")).toBe(
      `See ${PUBLIC_URL}/t/c/T. Docs (${PUBLIC_URL}/t/c/T) and <${PUBLIC_URL}/t/c/T>, mail a@b.example.`,
    );
  });

  test("share the link index of the same URL in the HTML part", () => {
    const template = prepareTracking(
      { html: '<a href="https://a.example/1">1</a><a href="https://a.example/2">2</a>', text: "https://a.example/2 https://c.example/3", headers: {} },
      { ...base, clicks: true, clickText: true },
    );
    expect(template.linkCount).toBe(3);
    const out = template.render({ recipientId: "r" });
    expect(tokens(out.text!, "c").map((t) => t?.linkIndex)).toEqual([1, 2]);
  });

  test("finder trims sentence punctuation", () => {
    expect(findTextLinks("go to https://a.example/x?y=1, then http://b.example!").map((l) => l.url)).toEqual([
      "https://a.example/x?y=1",
      "http://b.example",
    ]);
    expect(findTextLinks("see (https://en.example/wiki/Foo_(bar)).").map((l) => l.url)).toEqual(["https://en.example/wiki/Foo_(bar)"]);
  });

  test("a tail of hundreds of thousands of closers or dots is read once", () => {
    expect(findTextLinks(`https://a.example/x${")".repeat(200_000)}`).map((l) => l.url)).toEqual(["https://a.example/x"]);
    expect(findTextLinks(`https://a.example/${".".repeat(300_000)}x.`).map((l) => l.url.length)).toEqual([300_019]);
  });
});

describe("List-Unsubscribe (RFC 8058)", () => {
  test("adds the one-click HTTPS URI, the mailto URI and List-Unsubscribe-Post", () => {
    const out = applyTracking(
      { html: "<p>x</p>", headers: { Subject: "s" } },
      { ...base, unsubscribe: true, mailtoUnsubscribe: "unsubscribe+abc@bounce.example.com" },
    );
    expect(out.headers["List-Unsubscribe"]).toMatch(
      /^<https:\/\/track\.example\.com\/t\/u\/([A-Za-z0-9_-]+)>, <mailto:unsubscribe\+abc@bounce\.example\.com>$/,
    );
    expect(out.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(out.headers.Subject).toBe("s");
    expect(tokens(out.headers["List-Unsubscribe"]!, "u")).toEqual([
      { kind: "unsubscribe", messageId: "msg_1", recipientId: "rcpt_1", domain: "example.com" },
    ]);
    expect(out.html).toBe("<p>x</p>");
  });

  test("is absent for transactional mail and keeps a sender's own header", () => {
    expect(applyTracking({ headers: {} }, base).headers).toEqual({});
    const own = { "list-unsubscribe": "<https://sender.example/u>" };
    expect(applyTracking({ headers: own }, { ...base, unsubscribe: true }).headers).toEqual(own);
  });

  test("drops a mailto value that could break out of the header", () => {
    const out = applyTracking({ headers: {} }, { ...base, unsubscribe: true, mailtoUnsubscribe: "a@b.example>\r\nBcc: x@y" });
    expect(out.headers["List-Unsubscribe"]).toMatch(/^<https:\/\/track\.example\.com\/t\/u\/[A-Za-z0-9_-]+>$/);
  });

  test("omits List-Unsubscribe-Post when publicUrl is not HTTPS", () => {
    const out = applyTracking({ headers: {} }, { ...base, publicUrl: "http://localhost:8080/", unsubscribe: true });
    expect(out.headers["List-Unsubscribe"]).toMatch(/^<http:\/\/localhost:8080\/t\/u\/[A-Za-z0-9_-]+>$/);
    expect(out.headers["List-Unsubscribe-Post"]).toBeUndefined();
  });
});

describe("honeypot link", () => {
  const honeypotHref = `${PUBLIC_URL}/example.com/msg_1/hclick`;

  test("is added once at the end of the body, tiny but not display:none", () => {
    const out = applyTracking({ html: "<body><p>x</p></body>", headers: {} }, { ...base, opens: true, clicks: true, honeypot: true }).html!;
    expect(out.split("/hclick").length).toBe(2);
    const anchor = /<a href="([^"]+)"[^>]*>.*?<\/a><\/body>$/.exec(out);
    expect(anchor?.[1]).toBe(honeypotHref);
    expect(anchor?.[0]).not.toMatch(/display:\s*none|visibility:\s*hidden/);
    expect(anchor?.[0]).toContain("font-size:1px");
    // the honeypot is not itself click-tracked
    expect(tokens(out, "c")).toEqual([]);
  });

  test("is not added when the HTML already has one", () => {
    const src = '<body><a href="https://email.example.com/example.com/m/hclick"><img src="x"></a></body>';
    expect(applyTracking({ html: src, headers: {} }, { ...base, clicks: true, honeypot: true }).html).toBe(src);
  });

  test("escapes the path segments", () => {
    const out = applyTracking({ html: "<p>x</p>", headers: {} }, { ...base, messageId: "<a/b@x>", honeypot: true }).html!;
    expect(out).toContain(`${PUBLIC_URL}/example.com/%3Ca%2Fb%40x%3E/hclick`);
  });
});

describe("prepared template", () => {
  test("signs per recipient and matches applyTracking", () => {
    const input = { html: '<body><a href="https://a.example/x">x</a></body>', text: "https://a.example/x", headers: {} };
    const opts = { ...base, opens: true, clicks: true, clickText: true, unsubscribe: true, honeypot: true };
    const template = prepareTracking(input, opts);
    const a = template.render({ recipientId: "alice" });
    const b = template.render({ recipientId: "bob" });
    expect(a).toEqual(applyTracking(input, { ...opts, recipientId: "alice" }));
    expect(tokens(a.html!, "c")[0]?.recipientId).toBe("alice");
    expect(tokens(b.html!, "o")[0]?.recipientId).toBe("bob");
    expect(tokens(b.headers["List-Unsubscribe"]!, "u")[0]?.recipientId).toBe("bob");
    expect(input.headers).toEqual({});
  });

  test("scanHtml reports href offsets that slice back to the raw value", () => {
    const src = '<p><a title="a>b" href="https://a.example/?q=1&amp;r=2">x</a></p>';
    const [anchor] = scanHtml(src).anchors;
    expect(src.slice(anchor!.start, anchor!.end)).toBe("https://a.example/?q=1&amp;r=2");
  });
});

describe("performance", () => {
  test("rewrites a 50 KB message with 50 links", () => {
    const block = (i: number) =>
      `<tr><td style="padding:8px;font-family:Arial,sans-serif;color:#333">Item ${i}: ${"lorem ipsum dolor sit amet ".repeat(33)}` +
      `<a href="https://shop.example.org/product/${i}?utm_source=mail&amp;utm_campaign=c${i}" style="color:#06c">View</a></td></tr>\n`;
    const rows = Array.from({ length: 50 }, (_, i) => block(i)).join("");
    const html = `<html><head><style>td{padding:0}</style></head><body><table>${rows}</table></body></html>`;
    expect(html.length).toBeGreaterThan(50_000);
    const opts = { ...base, opens: true, clicks: true, unsubscribe: true, honeypot: true };
    const input = { html, headers: {} };
    const rounds = 200;

    let t0 = Bun.nanoseconds();
    for (let i = 0; i < rounds; i++) applyTracking(input, { ...opts, recipientId: `r${i}` });
    const fullUs = (Bun.nanoseconds() - t0) / rounds / 1000;

    t0 = Bun.nanoseconds();
    const template = prepareTracking(input, opts);
    const prepareUs = (Bun.nanoseconds() - t0) / 1000;
    t0 = Bun.nanoseconds();
    let out = template.render({ recipientId: "r" });
    for (let i = 0; i < rounds; i++) out = template.render({ recipientId: `r${i}` });
    const renderUs = (Bun.nanoseconds() - t0) / (rounds + 1) / 1000;

    expect(tokens(out.html!, "c").length).toBe(50);
    console.log(
      `50 KB / 50 links: applyTracking ${fullUs.toFixed(0)} µs per message; ` +
        `prepare ${prepareUs.toFixed(0)} µs once + render ${renderUs.toFixed(0)} µs per recipient`,
    );
  });
});
