import type { Page } from '@playwright/test';
import { SANDBOX_BASE_URL, expect, test, type Studio } from './fixtures';
import { connectScreenSeen, watchConnectScreen } from './connect-helpers';

// product-notes §3 "Connect and account": the key is typed, checked with GET /me, kept in this tab only
// unless remembered, never shown, and every refusal is explained with its remedy.

const storage = (page: Page) =>
  page.evaluate(() => {
    const dump = (s: Storage) =>
      Object.fromEntries(Array.from({ length: s.length }, (_, i) => s.key(i)!).map((k) => [k, s.getItem(k)]));
    return { local: dump(localStorage), session: dump(sessionStorage) };
  });

/** The key is nowhere a person or a script reading the page could pick it up, beyond what the brief allows. */
async function expectKeyNotExposed(studio: Studio, key: string) {
  const { page } = studio;
  expect(page.url()).not.toContain(key);
  expect(await page.evaluate(() => document.body.innerText)).not.toContain(key);
  // Not in any attribute or text of the document either (an input's value attribute, a title, a data-*).
  expect(await page.content()).not.toContain(key);
  expect(await page.evaluate(() => document.title)).not.toContain(key);
}

test.describe('connecting', () => {
  test('the personal key connects, shows the balance and the account, and stays out of the page', async ({
    studio,
    page,
  }) => {
    const key = studio.keyOf('personal');
    await studio.goto();
    await expect(studio.baseUrl).toHaveValue(SANDBOX_BASE_URL);
    await expect(studio.apiKey).toHaveAttribute('type', 'password');

    await studio.apiKey.pressSequentially(key.slice(0, 8));
    await studio.apiKey.fill(key);
    await studio.connectButton.click();

    await expect(studio.accountButton).toBeVisible();
    await expect(studio.accountButton).toContainText('5,000 credits');
    await expect(studio.connectButton).toBeHidden();
    await expectKeyNotExposed(studio, key);

    const { local, session } = await storage(page);
    expect(Object.values(local).join('\n')).not.toContain(key);
    // Not remembered: this tab's sessionStorage only.
    expect(Object.values(session)).toContain(key);

    const dialog = await studio.openAccount();
    await expect(dialog.getByText('Balance', { exact: true })).toBeVisible();
    await expect(dialog.getByText('5,000 credits')).toBeVisible();
    await expect(dialog.getByText('Demo project')).toBeVisible();
    // The public prefix is shown, never the key.
    await expect(dialog.getByText(`${key.slice(0, 12)}…`)).toBeVisible();
    await expect(dialog.getByText(/tasks$/)).toBeVisible();
    await expectKeyNotExposed(studio, key);
  });

  test('"Remember this key on this device" keeps the key in localStorage and a reload reconnects', async ({
    studio,
    page,
  }) => {
    const key = studio.keyOf('personal');
    await studio.start('personal', { remember: true });

    const { local, session } = await storage(page);
    expect(Object.values(local)).toContain(key);
    expect(Object.values(session)).not.toContain(key);

    await page.reload();
    await expect(studio.accountButton).toContainText('5,000 credits');
    await expect(studio.apiKey).toBeHidden();
    await expectKeyNotExposed(studio, key);
  });

  test('a reload with a stored key goes straight to the studio: the connect screen is never shown on the way', async ({
    studio,
    page,
  }) => {
    await studio.start('personal', { remember: true });
    // Every frame from the start of the reload: whether the connect screen could be seen in it.
    await watchConnectScreen(page);
    await page.reload();
    await expect(studio.accountButton).toContainText('5,000 credits');
    await expect(page.locator('html')).not.toHaveAttribute('data-reconnecting');
    expect(await connectScreenSeen(page)).toEqual([]);
  });

  test('a stored key the service now refuses shows the connect screen with the reason after a reload', async ({
    studio,
    page,
  }) => {
    await studio.goto();
    await page.evaluate(
      ([key, baseUrl]) => {
        localStorage.setItem('media-studio:api-key', key!);
        localStorage.setItem('media-studio:base-url', baseUrl!);
      },
      [studio.keyOf('revoked'), SANDBOX_BASE_URL],
    );
    await page.reload();
    await expect(page.getByRole('alert')).toContainText('This API key was not accepted');
    await expect(studio.connectButton).toBeVisible();
    await expect(studio.accountButton).toHaveCount(0);
  });

  test('without "Remember" a reload of the tab reconnects, but a new browser context does not', async ({
    studio,
    page,
    browser,
    baseURL,
  }) => {
    await studio.start('personal');
    await page.reload();
    await expect(studio.accountButton).toContainText('5,000 credits');

    const other = await browser.newContext({ baseURL });
    try {
      const fresh = await other.newPage();
      await fresh.goto('/');
      await expect(fresh.getByLabel('API key', { exact: true })).toHaveValue('');
      await expect(fresh.getByRole('button', { name: 'Connect', exact: true })).toBeVisible();
      await expect(fresh.getByRole('button', { name: /^Account: / })).toHaveCount(0);
    } finally {
      await other.close();
    }
  });

  test('an unknown key gets the invalid_token explanation and what was typed stays in the fields', async ({
    studio,
    page,
  }) => {
    const unknown = `gm_live_${'Zz9'.repeat(10)}Zz`;
    expect(unknown).toHaveLength(8 + 32);
    await studio.goto();
    await studio.baseUrl.fill('');
    await studio.baseUrl.fill(SANDBOX_BASE_URL);
    await studio.apiKey.fill(unknown);
    await studio.connectButton.click();

    const alert = page.getByRole('alert');
    await expect(alert).toContainText('This API key was not accepted');
    await expect(alert).toContainText('create a new one');
    // The service's own words beside the studio's, as it sent them and marked not to be translated.
    await expect(alert).toContainText('The service said: The API key is not valid.');
    await expect(alert.locator('q[translate="no"]')).toHaveText('The API key is not valid.');
    await expect(studio.baseUrl).toHaveValue(SANDBOX_BASE_URL);
    await expect(studio.apiKey).toHaveValue(unknown);
    await expect(studio.accountButton).toHaveCount(0);
    // The message names the problem, never the key.
    expect(await alert.textContent()).not.toContain(unknown);
    const { local, session } = await storage(page);
    expect(JSON.stringify({ local, session })).not.toContain(unknown);
  });

  const refusals = [
    { name: 'banned', text: /account that owns this key has been suspended/, remedy: /Contact support/ },
    { name: 'expired', text: /This API key was not accepted/, remedy: /create a new one/ },
    { name: 'revoked', text: /This API key was not accepted/, remedy: /create a new one/ },
  ] as const;
  for (const { name, text, remedy } of refusals) {
    test(`the ${name} key is refused with its explanation and remedy`, async ({ studio, page }) => {
      const key = studio.keyOf(name);
      await studio.goto();
      await studio.fillKey(key);
      const alert = page.getByRole('alert');
      await expect(alert).toContainText(text);
      await expect(alert).toContainText(remedy);
      await expect(studio.apiKey).toHaveValue(key);
      await expect(studio.accountButton).toHaveCount(0);
    });
  }
});

test.describe('the account', () => {
  test('an unbound key connects and explains that its project was deleted, with the remedy', async ({
    studio,
  }) => {
    await studio.start('unbound');
    const warning = studio.page
      .getByRole('alert')
      .filter({ hasText: "This key's project has been deleted." });
    await expect(warning).toBeVisible();
    await expect(warning).toContainText('create a new key bound to an existing project');

    const dialog = await studio.openAccount();
    await expect(dialog.getByText('Deleted', { exact: true })).toBeVisible();
    await expect(dialog.getByText(/project has been deleted/)).toBeVisible();
  });

  test('a key that expires within 7 days is warned about', async ({ studio }) => {
    await studio.start('expiring');
    await expect(
      studio.page.getByRole('status').filter({ hasText: /This key expires (today|in \d+ days?)\./ }),
    ).toBeVisible();
    await expect(studio.page.getByText(/Create a new key before .+ to keep working\./).first()).toBeVisible();
  });

  test('a capped key shows today’s spend against its daily cap as a meter', async ({ studio }) => {
    await studio.start('capped');
    const dialog = await studio.openAccount();
    const meter = dialog.getByRole('meter', { name: 'Spent today, against the daily cap' });
    await expect(meter).toBeVisible();
    await expect(meter).toHaveAttribute('max', '50');
    await expect(meter).toHaveAttribute('value', '0');
    await expect(dialog.getByText('0 / 50')).toBeVisible();
    await expect(dialog.getByText(/50 credits left today/)).toBeVisible();
  });

  test('a personal key has no cap meter and a team key shows the team balance', async ({ studio }) => {
    await studio.start('personal');
    let dialog = await studio.openAccount();
    await expect(dialog.getByRole('meter')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Disconnect' }).click();

    await studio.connect('team');
    await expect(studio.accountButton).toContainText('20,000 credits');
    dialog = await studio.openAccount();
    await expect(dialog.getByText('Team balance', { exact: true })).toBeVisible();
    await expect(dialog.getByText('20,000 credits')).toBeVisible();
    await expect(dialog.getByText('Team launch campaign')).toBeVisible();
  });

  test('Disconnect returns to the connect form and forgets the key', async ({ studio, page }) => {
    const key = studio.keyOf('personal');
    await studio.start('personal', { remember: true });
    const dialog = await studio.openAccount();
    await dialog.getByRole('button', { name: 'Disconnect' }).click();

    await expect(studio.connectButton).toBeVisible();
    await expect(studio.apiKey).toHaveValue('');
    await expect(studio.baseUrl).toHaveValue(SANDBOX_BASE_URL);
    await expect(studio.accountButton).toHaveCount(0);
    expect(JSON.stringify(await storage(page))).not.toContain(key);

    await page.reload();
    await expect(studio.connectButton).toBeVisible();
    await expect(studio.accountButton).toHaveCount(0);
  });

  test('show/hide switches the key input between password and text', async ({ studio }) => {
    await studio.goto();
    await studio.apiKey.fill(studio.keyOf('personal'));
    await expect(studio.apiKey).toHaveAttribute('type', 'password');
    await studio.page.getByRole('button', { name: 'Show key' }).click();
    await expect(studio.apiKey).toHaveAttribute('type', 'text');
    await expect(studio.page.getByRole('button', { name: 'Hide key' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await studio.page.getByRole('button', { name: 'Hide key' }).click();
    await expect(studio.apiKey).toHaveAttribute('type', 'password');
  });
});
