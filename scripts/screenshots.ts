import { chromium, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';

// `npx tsx scripts/screenshots.ts [studioUrl]`: screenshots of each screen, light and dark, desktop and
// phone, into docs/screenshots/ (with `npm start` running). For looking at, not for asserting.

const studio = process.argv[2] ?? 'http://127.0.0.1:4173';
const out = 'docs/screenshots';
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});

async function connect(page: Page) {
  await page.goto(studio);
  await page.getByLabel('Sandbox demo key').selectOption('personal');
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByRole('tab', { name: 'Models' }).waitFor();
}

async function shoot(
  name: string,
  colorScheme: 'light' | 'dark',
  viewport: { width: number; height: number },
  steps: (page: Page) => Promise<void>,
) {
  const context = await browser.newContext({ colorScheme, viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await steps(page);
  await page.waitForTimeout(800);
  await page.screenshot({ path: `${out}/${name}-${colorScheme}.png`, fullPage: false });
  await context.close();
}

const desktop = { width: 1280, height: 860 };
const phone = { width: 390, height: 844 };

for (const scheme of ['light', 'dark'] as const) {
  await shoot('connect', scheme, desktop, async (page) => {
    await page.goto(studio);
    await page.getByLabel('API key').waitFor();
  });
  await shoot('model-form', scheme, desktop, async (page) => {
    await connect(page);
    await page
      .getByRole('button', { name: /Lumen Canvas/ })
      .first()
      .click();
    await page.getByLabel('Prompt', { exact: true }).fill('A red fox curled up in fresh snow, morning light');
  });
  await shoot('templates', scheme, desktop, async (page) => {
    await connect(page);
    await page.getByRole('tab', { name: 'Templates' }).click();
  });
}
await shoot('phone', 'light', phone, async (page) => {
  await connect(page);
});
await browser.close();
console.log(`screenshots in ${out}/`);
