import { SANDBOX_BASE_URL, expect, test } from './fixtures';

test('the studio loads and defaults to the sandbox it was started with', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Media Studio' })).toBeVisible();
  await expect(page.getByLabel('Base URL', { exact: true })).toHaveValue(SANDBOX_BASE_URL);
});

test('the sandbox answers at that Base URL with a demo key', async ({ request, demoKeys }) => {
  const res = await request.get(`${SANDBOX_BASE_URL}/me`, {
    headers: { Authorization: `Bearer ${demoKeys.personal}` },
  });
  expect(res.status()).toBe(200);
  const me = await res.json();
  expect(me.user.creditBalance).toBeGreaterThan(0);
});
