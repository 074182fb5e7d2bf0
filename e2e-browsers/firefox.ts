import puppeteer, { type Browser, type ElementHandle, type KeyInput, type Page } from 'puppeteer-core';
import { writeFile } from 'node:fs/promises';
import type { Driver } from './driver';

// Firefox ESR (Debian's firefox-esr) through Puppeteer over WebDriver BiDi.

const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

export async function launchFirefox(): Promise<Driver> {
  const browser: Browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    defaultViewport: { width: 1280, height: 900 },
    // No calls out of the closed network: updates, telemetry, safe browsing lists, captive portal checks.
    extraPrefsFirefox: {
      'app.update.enabled': false,
      'browser.safebrowsing.update.enabled': false,
      'network.captive-portal-service.enabled': false,
      'network.connectivity-service.enabled': false,
      'toolkit.telemetry.enabled': false,
      'datareporting.policy.dataSubmissionEnabled': false,
    },
  });
  const page: Page = await browser.newPage();
  let errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console.error: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`uncaught: ${e instanceof Error ? e.message : String(e)}`));
  const version = (await browser.version()).replace('/', ' ');

  /** The marked element, or null when it is gone (the page re-rendered). */
  const element = (css: string): Promise<ElementHandle<Element> | null> => page.$(css);
  const withElement = async (css: string, action: (el: ElementHandle<Element>) => Promise<unknown>) => {
    const el = await element(css);
    if (!el) return false;
    try {
      await action(el);
      return true;
    } finally {
      await el.dispose();
    }
  };

  return {
    name: `firefox-esr ${version.replace(/^firefox /, '')}`,
    async goto(url) {
      await page.goto(url, { waitUntil: 'load' });
    },
    async reload() {
      await page.reload({ waitUntil: 'load' });
    },
    evaluate<T>(fn: string, arg?: unknown) {
      return page.evaluate(`(${fn})(${JSON.stringify(arg ?? null)})`) as Promise<T>;
    },
    click: (css) => withElement(css, (el) => el.click()),
    type: (css, text) =>
      withElement(css, async (el) => {
        // Select what the field holds, so the typing replaces it.
        await page.evaluate(
          `(() => { const el = document.querySelector(${JSON.stringify(css)}); el.focus(); el.select(); })()`,
        );
        await el.type(text);
      }),
    select: (css, value) => withElement(css, (el) => el.select(value)),
    upload: (css, paths) =>
      withElement(css, (el) => (el as ElementHandle<HTMLInputElement>).uploadFile(...paths)),
    async press(chord) {
      const keys = chord.split('+') as KeyInput[];
      const key = keys.pop()!;
      for (const modifier of keys) await page.keyboard.down(modifier);
      await page.keyboard.press(key);
      for (const modifier of keys.reverse()) await page.keyboard.up(modifier);
    },
    typeKeys: (text) => page.keyboard.type(text),
    async errors() {
      const seen = errors;
      errors = [];
      return seen;
    },
    async screenshot(path) {
      await writeFile(path, await page.screenshot({ type: 'png' }));
    },
    async close() {
      await browser.close();
    },
  };
}
