// Headless Chromium (Debian's /usr/bin/chromium) driven through puppeteer-core, for the console
// tests: a fresh profile per launch, page errors collected, and helpers that find controls by
// their visible labels (ARIA names), as a person would.
import puppeteer, { type Browser, type ElementHandle, type Page } from "puppeteer-core";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Page-side callbacks run in Chromium; this file is typed without the DOM library.
declare const document: any;

export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

export interface Driven {
  browser: Browser;
  page: Page;
  /** Uncaught exceptions and console errors of every page, in order. */
  errors: string[];
  close(): Promise<void>;
}

export async function launch(): Promise<Driven> {
  const profile = mkdtempSync(join(tmpdir(), "postern-chromium-"));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM, headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", `--user-data-dir=${profile}`],
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(`pageerror: ${(err as Error).message ?? err}`));
  page.on("console", (msg) => { if (msg.type() === "error") errors.push(`console: ${msg.text()}`); });
  return {
    browser, page, errors,
    async close() { await browser.close(); rmSync(profile, { recursive: true, force: true }); },
  };
}

/** The visible element of `selector` whose text (or, for controls, whose <label>'s text) is exactly `name`. */
async function byName(page: Page, selector: string, name: string, viaLabel = false) {
  const handle = await page.waitForFunction((sel, n, lab) => {
    const visible = (e: any) => (e as any).offsetParent !== null || (e as any).getClientRects().length > 0;
    if (lab) {
      const label = [...document.querySelectorAll("label")].find((l) => l.textContent!.trim() === n && l.control && visible(l.control));
      return label?.control ?? null;
    }
    return [...document.querySelectorAll(sel)].find((e) => e.textContent!.trim() === n && visible(e)) ?? null;
  }, { timeout: 10_000 }, selector, name, viaLabel);
  return handle.asElement() as ElementHandle<any>;
}

/** Waits until the element's box is the same over two animation frames. Puppeteer clicks at the
 * coordinates it read first: a header that reflows between the read and the press (a select filled
 * after sign-in, say) would otherwise take the click somewhere else, as Playwright's "stable"
 * actionability check prevents. */
async function stable(el: ElementHandle<any>) {
  await el.evaluate((e: any) => new Promise<void>((done) => {
    let last = "";
    const frame = () => {
      const r = e.getBoundingClientRect();
      const now = `${r.x},${r.y},${r.width},${r.height}`;
      if (now === last) done(); else { last = now; (globalThis as any).requestAnimationFrame(frame); }
    };
    frame();
  }));
  return el;
}

/** Clicks the visible button named `name`. */
export async function clickButton(page: Page, name: string) {
  await (await stable(await byName(page, "button", name))).click();
}

export async function clickLink(page: Page, name: string) {
  await (await stable(await byName(page, "a", name))).click();
}

/** Types into the text field labelled `label` (replacing what it held). */
export async function fill(page: Page, label: string, value: string) {
  const el = await byName(page, "", label, true);
  await el.evaluate((e) => { (e as any).value = ""; });
  await el.type(value);
}

/** Picks `value` in the select labelled `label`. */
export async function choose(page: Page, label: string, value: string) {
  const el = await byName(page, "", label, true);
  await el.select(value);
}

/** Clicks the button `name` in the table row that contains `rowText`. */
export async function clickInRow(page: Page, rowText: string, name: string) {
  await page.waitForFunction((t) => [...document.querySelectorAll("tr")].some((tr) => tr.textContent!.includes(t)), {}, rowText);
  await page.evaluate((t, n) => {
    const row = [...document.querySelectorAll("tr")].find((tr) => tr.textContent!.includes(t))!;
    [...row.querySelectorAll("button")].find((b) => b.textContent === n)!.click();
  }, rowText, name);
}

/** Waits until the page shows `text`. */
export async function waitForText(page: Page, text: string, timeout = 10_000) {
  await page.waitForFunction((t) => document.body.innerText.includes(t), { timeout }, text);
}

export async function waitForNoText(page: Page, text: string, timeout = 10_000) {
  await page.waitForFunction((t) => !document.body.innerText.includes(t), { timeout }, text);
}

/** Saves a PNG of the page in docs/console/ when POSTERN_SCREENSHOTS is set (refreshing the docs). */
export async function screenshot(page: Page, name: string) {
  if (!process.env.POSTERN_SCREENSHOTS) return;
  await page.screenshot({ path: join(import.meta.dir, "..", "..", "docs", "console", `${name}.png`) as `${string}.png`, fullPage: true });
}
