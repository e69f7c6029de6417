import { describe, expect, test } from "bun:test";
import { fillCaptures, parseAction, parseExpression, RouteSyntaxError } from "../../src/core/inbound/expression.ts";
import { routeRecipient, routerFor, type InboundRoute } from "../../src/core/inbound/routes.ts";

const route = (id: string, priority: number, expression: string, actions: string[], createdAt = 0): InboundRoute =>
  ({ id, priority, description: "", expression, actions, createdAt });
const noHeaders = () => [] as string[];

describe("Mailgun route expressions", () => {
  test("parses the three filters, both quote styles and 'and'", () => {
    expect(parseExpression(`match_recipient(".*@bar.com")`)[0]!.kind).toBe("recipient");
    expect(parseExpression(`match_header('subject', '.*support')`)[0]).toMatchObject({ kind: "header", name: "subject" });
    expect(parseExpression("catch_all()")).toEqual([{ kind: "catch_all" }]);
    expect(parseExpression(`match_recipient("a@x.com") and match_header("X-Prio", "high")`)).toHaveLength(2);
  });
  test("refuses what it does not know, with the reason", () => {
    for (const bad of ["", "match_everything()", `match_recipient("a`, `match_recipient("(")`, `catch_all() and match_recipient("x")`, `match_recipient("a") or catch_all()`])
      expect(() => parseExpression(bad)).toThrow(RouteSyntaxError);
  });
  test("parses actions", () => {
    expect(parseAction(`forward("http://h/x")`)).toEqual({ kind: "forward", destination: "http://h/x" });
    expect(parseAction(`forward('ops@example.com')`)).toEqual({ kind: "forward", destination: "ops@example.com" });
    expect(parseAction(`store(notify="https://h/n")`)).toEqual({ kind: "store", notify: "https://h/n" });
    expect(parseAction("store()")).toEqual({ kind: "store", notify: null });
    expect(parseAction("stop()")).toEqual({ kind: "stop" });
    expect(() => parseAction("drop()")).toThrow(RouteSyntaxError);
    expect(() => parseAction(`forward("")`)).toThrow(RouteSyntaxError);
  });
  test("an escaped quote stays in the pattern and backslash classes survive", () => {
    const [f] = parseExpression(`match_header("subject", "say \\"hi\\"\\s+now")`);
    expect(f?.kind === "header" && f.re.test(`say "hi"   now`)).toBe(true);
  });
  test("fills numbered and named captures", () => {
    expect(fillCaptures("http://h/\\g<user>/\\1", { groups: ["bob"], named: { user: "bob" } })).toBe("http://h/bob/bob");
  });
});

describe("the priority waterfall", () => {
  const routes = [
    route("low", 10, "catch_all()", [`forward("http://h/catchall")`]),
    route("sales", 1, `match_recipient("^sales@ex\\.com$")`, [`forward("http://h/sales")`, "stop()"]),
    route("any", 2, `match_recipient(".*@ex.com")`, [`store(notify="http://h/stored")`]),
    route("named", 3, `match_recipient("^(?P<user>[^@]+)@(?P<dom>.*)$")`, [`forward("http://h/\\g<dom>/\\g<user>")`]),
  ];
  test("stop() ends the waterfall after its own actions", () => {
    expect(routeRecipient(routes, "sales@ex.com", noHeaders).map((a) => a.routeId)).toEqual(["sales"]);
  });
  test("every matching route runs in priority order, captures fill the destination", () => {
    const acts = routeRecipient(routes, "Bob@ex.com", noHeaders);
    expect(acts.map((a) => a.routeId)).toEqual(["any", "named"]);
    expect(acts[1]).toMatchObject({ kind: "forward", destination: "http://h/ex.com/Bob" });
  });
  test("catch_all() only when nothing matched before", () => {
    expect(routeRecipient(routes.slice(0, 2), "x@other.org", noHeaders).map((a) => a.routeId)).toEqual(["low"]);
    expect(routeRecipient([routes[0]!, routes[1]!], "sales@ex.com", noHeaders).map((a) => a.routeId)).toEqual(["sales"]);
  });
  test("re.match semantics: anchored at the start, not at the end", () => {
    const r = [route("s", 0, `match_header("subject", ".*support")`, [`forward("http://h/s")`])];
    expect(routeRecipient(r, "a@b.c", (n) => (n === "subject" ? ["Need Support now"] : []))).toHaveLength(1);
    const r2 = [route("s", 0, `match_header("subject", "support")`, [`forward("http://h/s")`])];
    expect(routeRecipient(r2, "a@b.c", (n) => (n === "subject" ? ["need support"] : []))).toHaveLength(0);
  });
  test("a route that no longer parses is skipped, not fatal", () => {
    expect(routeRecipient([route("bad", 0, "nonsense(", []), routes[1]!], "sales@ex.com", noHeaders)).toHaveLength(1);
  });
});

describe("header filters on a stranger's message", () => {
  // Every recipient ran the filter over every value again: 3000 recipients and 100,000 values were
  // 300 million matches (4.3 s); a message's router matches the reader's answer once.
  test("3000 recipients of a message with 100,000 X-Prio fields: the filter matches them once", () => {
    const values = Array.from({ length: 100_000 }, (_, i) => (i === 99_999 ? "urgent-7" : "low"));
    let reads = 0;
    const header = (name: string) => { reads++; return name === "x-prio" ? values : []; };
    const routes = [route("prio", 0, `match_header("X-Prio", "urgent-(\\d+)") and match_recipient("^(.+)@ex\\.com$")`, [`forward("http://h/\\1/\\2")`])];
    const router = routerFor(routes, header);
    const destinations = Array.from({ length: 3000 }, (_, i) => router(`u${i}@ex.com`)[0]?.kind === "forward" ? "hit" : "miss");
    expect(destinations.every((d) => d === "hit")).toBe(true);
    expect(router("bob@ex.com")).toEqual([{ kind: "forward", destination: "http://h/7/bob", routeId: "prio" }]);
    expect(reads).toBe(1);
    // Another message (another reader) is matched afresh.
    expect(routeRecipient(routes, "bob@ex.com", (n) => (n === "x-prio" ? ["urgent-9"] : []))[0]).toMatchObject({ destination: "http://h/9/bob" });
  });
});
