import { chromium } from '@playwright/test';
import { CHROMIUM } from './scripts/chromium';
const studio = 'http://127.0.0.1:4173';
const browser = await chromium.launch(CHROMIUM);
for (const colorScheme of ['light', 'dark'] as const)
  for (const [w, h, name] of [[1280, 860, 'desktop'], [390, 844, 'phone']] as const) {
    const context = await browser.newContext({ colorScheme, viewport: { width: w, height: h } });
    const page = await context.newPage();
    await page.goto(studio);
    await page.getByLabel('Sandbox demo key').selectOption('personal');
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByRole('button', { name: /^Account: / }).waitFor();
    await page.getByRole('button', { name: 'Gallery', exact: true }).click();
    const gallery = page.getByRole('main', { name: 'Gallery' });
    await gallery.getByRole('button', { name: 'Filters' }).click();
    const now = new Date();
    await gallery.getByRole('combobox', { name: 'Month' }).selectOption(`${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`);
    await page.waitForTimeout(800);
    await page.screenshot({ path: `/tmp/shots/month-${name}-${colorScheme}.png` });
    await context.close();
  }
await browser.close();
