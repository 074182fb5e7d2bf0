import { creditsText, expect, test, type Sandbox, type Studio } from './fixtures';

// product-notes §3 "Live quote": the region "Quote" shows the credits of the exact payload the form would
// send (POST /quote), follows every change that moves the price, and stays within the rate limit.

/** The form's exact body (from "Copy request"), priced by the sandbox directly, and the region agreeing. */
async function expectQuoteOfForm(studio: Studio, sandbox: Sandbox) {
  const body = await studio.requestBody();
  const { credits } = await sandbox.quote(body);
  await expect(studio.quote.getByTestId('quote-credits')).toHaveText(creditsText(credits));
  await expect(studio.quote.getByText('updating')).toBeHidden();
  return { body, credits };
}

test.beforeEach(async ({ studio }) => {
  await studio.start('personal');
});

test('the quote shows the credits of POST /quote for the exact payload, and follows price-changing fields', async ({
  studio,
  sandbox,
}) => {
  const form = await studio.openModel('Lumen Canvas');
  await expect(studio.quote).toContainText('Complete the required fields to see the price.');
  await studio.prompt.fill('A lighthouse on a cliff at dusk, oil painting');

  const first = await expectQuoteOfForm(studio, sandbox);
  expect(first.body).toMatchObject({
    interfaceId: 'lumen-canvas',
    versionId: 'lumen-canvas-v2',
    params: { prompt: 'A lighthouse on a cliff at dusk, oil painting', resolution: '1K', num_images: 1 },
  });

  // Resolution multiplies the price.
  await form
    .getByRole('group', { name: 'Resolution', exact: true })
    .getByRole('radio', { name: '2K' })
    .check();
  const hiRes = await expectQuoteOfForm(studio, sandbox);
  expect(hiRes.body.params).toMatchObject({ resolution: '2K' });
  expect(hiRes.credits).toBeGreaterThan(first.credits);

  // So does the number of images.
  await form
    .getByRole('group', { name: 'Number of images', exact: true })
    .getByRole('radio', { name: '3 images' })
    .check();
  const three = await expectQuoteOfForm(studio, sandbox);
  expect(three.body.params).toMatchObject({ resolution: '2K', num_images: 3 });
  expect(three.credits).toBeGreaterThan(hiRes.credits);

  // And the version.
  await form.getByRole('combobox', { name: 'Version', exact: true }).selectOption('lumen-canvas-v3');
  const v3 = await expectQuoteOfForm(studio, sandbox);
  expect(v3.body).toMatchObject({ versionId: 'lumen-canvas-v3' });
  expect(v3.credits).not.toBe(three.credits);

  // The breakdown is the sandbox's.
  await studio.quote.getByText('Price breakdown').click();
  await expect(studio.quote.getByTestId('breakdown-pricingKey')).toHaveText('lumen-canvas/v3');
});

test('estimatedSeconds appears once a task of that model has run', async ({ studio, sandbox }) => {
  await studio.openModel('Pop Diffusion');
  await studio.prompt.fill('A red bicycle');
  await expectQuoteOfForm(studio, sandbox);
  await expect(studio.quote).toContainText('No timing yet for this model');

  const task = await sandbox.runTask({
    interfaceId: 'pixelmoss-pop',
    versionId: 'pixelmoss-pop-1',
    params: { prompt: 'A blue bicycle' },
  });
  expect(task.status).toBe('succeeded');

  await studio.prompt.fill('A red bicycle in the rain');
  await expectQuoteOfForm(studio, sandbox);
  await expect(studio.quote).toContainText(/About (<1 s|\d+ s|\d+ min( \d+ s)?) to generate/);
});

test('typing a 60-character prompt sends at most 3 POST /quote', async ({ studio, sandbox, page }) => {
  await studio.openModel('Lumen Canvas');
  const before = (await sandbox.requests()).length;
  // When each keystroke reached the page: on a starved machine the typing itself can stall past the
  // debounce, and a stall is a pause in which the studio may rightly ask for a price.
  await studio.prompt.evaluate((el) => {
    const seen: number[] = [];
    (window as unknown as { __inputs: number[] }).__inputs = seen;
    el.addEventListener('input', () => seen.push(performance.now()));
  });

  const text = 'A quiet harbour at dawn, fishing boats, soft mist, pale sky.';
  expect(text).toHaveLength(60);
  await studio.prompt.pressSequentially(text, { delay: 125 });
  await expect(studio.prompt).toHaveValue(text);
  // Settled: a price is shown and it is no longer marked as updating.
  await expect(studio.quote.getByTestId('quote-credits')).toBeVisible();
  await expect(studio.quote.getByText('updating')).toBeHidden();

  const quotes = (await sandbox.requests())
    .slice(before)
    .filter((r) => r.method === 'POST' && r.path === '/v1/quote');
  const inputs = await page.evaluate(() => (window as unknown as { __inputs: number[] }).__inputs);
  expect(inputs).toHaveLength(60);
  const stalls = inputs.slice(1).filter((t, i) => t - inputs[i]! >= 500).length;
  test.info().annotations.push({
    type: 'quote requests',
    description: `${quotes.length} POST /quote; ${stalls} gaps of 500 ms or more between keystrokes`,
  });

  expect(quotes.length).toBeGreaterThanOrEqual(1);
  // product-notes §3: debounced. Typed at 125 ms a key, at most 3; one more per stall of the typing itself.
  expect(quotes.length).toBeLessThanOrEqual(Math.max(3, 1 + stalls));
  expect(quotes.every((r) => r.status === 200 && r.keyName === 'personal')).toBe(true);
  // And the price shown is the one of the final prompt.
  const { body } = await expectQuoteOfForm(studio, sandbox);
  expect(body.params).toMatchObject({ prompt: text });
});
