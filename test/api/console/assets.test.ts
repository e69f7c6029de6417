// The console's embedded page and assets (src/api/console/assets.ts) served by a real postern:
// every file the page links is served with its type and the strict CSP; the page has no inline
// script (the CSP would block it); an unknown asset is a 404.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startConsole, type ConsoleEnv } from "./setup.ts";

setDefaultTimeout(60_000);
let env: ConsoleEnv;
beforeAll(async () => { env = await startConsole(); });
afterAll(async () => { await env.close(); });

describe("console assets", () => {
  test("the page and everything it links are served with their types and the strict CSP", async () => {
    const page = await fetch(`${env.base}/ui`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    const linked = [...html.matchAll(/(?:src|href)="(\/ui\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(linked.some((p) => p.endsWith(".js"))).toBe(true);
    expect(linked.some((p) => p.endsWith(".css"))).toBe(true);
    for (const res of [page, ...(await Promise.all(linked.map((p) => fetch(`${env.base}${p}`))))]) {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
    for (const p of linked) {
      const type = (await fetch(`${env.base}${p}`)).headers.get("content-type");
      expect(type).toContain(p.endsWith(".js") ? "text/javascript" : "text/css");
    }
  });

  test("the page carries no inline script or handler; an unknown asset is a 404", async () => {
    const html = await (await fetch(`${env.base}/ui`)).text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
    expect(html).not.toMatch(/\son[a-z]+="/i);
    expect((await fetch(`${env.base}/ui/assets/nothing.js`)).status).toBe(404);
  });
});
