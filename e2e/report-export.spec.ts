import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures';
import { runVotedBoard } from './report-board';

// Export report from the Model report (product-notes "Deciding with evidence"): a small board run against
// the sandbox and voted blind, as in model-report.spec.ts, then its report saved as one HTML page and as
// CSV. The page is read as text (the table, the pictures as data: URLs, no script, not the key) and then
// opened in a page of its own with every network request refused: the table, the charts and the pictures
// still show, and the board's name, which holds a script, stays text.

const BOARD_NAME = 'Lighthouses <script>alert(1)</script>';
const HTML_BUTTON = 'Export report (HTML page with images)';
const CSV_BUTTON = 'Export report figures (CSV)';

test('Export report saves a page that opens with no network and no script, and the figures as CSV', async ({
  studio,
  page,
  context,
}) => {
  // Two tasks per model, two votes, then the pictures drawn and the page opened again.
  test.slow();
  await page.setViewportSize({ width: 1280, height: 800 });
  await studio.start('personal');
  // Run and voted blind: prompt 1's best is Candidate A, prompt 2 a tie.
  const board = await runVotedBoard(page, { name: BOARD_NAME });

  // Still blind: nothing to export.
  await board.getByRole('button', { name: 'Model report', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Model report' });
  await expect(dialog.getByText('You are still blind on this board.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: /^Export report/ })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await board.getByRole('button', { name: 'Reveal', exact: true }).click();
  await board.getByRole('button', { name: 'Model report', exact: true }).click();
  await expect(dialog.getByRole('table')).toBeVisible();

  // The key the studio keeps for this tab: in neither file.
  const key = studio.keyOf('personal');
  expect(await page.evaluate(() => sessionStorage.getItem('media-studio:api-key'))).toBe(key);

  const htmlDownload = page.waitForEvent('download');
  await dialog.getByRole('button', { name: HTML_BUTTON }).click();
  const htmlFile = await htmlDownload;
  expect(htmlFile.suggestedFilename()).toBe('Lighthouses scriptalert1script-report.html');
  const html = await readFile(await htmlFile.path(), 'utf8');
  expect(html.toLowerCase()).not.toContain('<script');
  expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  expect(html).toContain('<table class="figures">');
  expect(html).toContain(
    'content="default-src &#39;none&#39;; img-src data:; style-src &#39;unsafe-inline&#39;"',
  );
  expect(html.match(/<img src="data:image\/jpeg;base64,/g)).toHaveLength(4);
  expect(html).not.toMatch(/(?:src|href)="(?!data:)/);
  expect(html).not.toContain(key);

  // Opened on its own, every request refused: it needs none, and its script-like name does not run.
  const viewer = await context.newPage();
  const requested: string[] = [];
  await viewer.route('**/*', (route) => {
    requested.push(route.request().url());
    return route.abort();
  });
  const alerts: string[] = [];
  viewer.on('dialog', (d) => {
    alerts.push(d.message());
    void d.dismiss();
  });
  await viewer.setContent(html, { waitUntil: 'load' });
  await expect(viewer.getByRole('heading', { level: 1 })).toHaveText(BOARD_NAME);
  const rows = viewer.locator('table.figures tbody tr');
  await expect(rows).toHaveCount(2);
  for (const r of [0, 1]) {
    await expect(rows.nth(r).getByRole('rowheader')).toContainText('Preliminary');
    await expect(rows.nth(r)).toContainText(/p95 of 2 runs/);
  }
  await expect(rows.nth(0)).toContainText('1 / 0 / 1');
  await expect(rows.nth(1)).toContainText('0 / 1 / 1');
  await expect(
    viewer.getByRole('img', { name: /^Quality against credits per output\. On the front/ }),
  ).toBeVisible();
  await expect(
    viewer.getByRole('img', { name: /^Quality against median run time\. On the front/ }),
  ).toBeVisible();
  const pictures = viewer.locator('table.outputs img');
  await expect(pictures).toHaveCount(4);
  await expect
    .poll(() =>
      pictures.evaluateAll((imgs) =>
        (imgs as HTMLImageElement[]).every((img) => img.complete && img.naturalWidth > 0),
      ),
    )
    .toBe(true);
  expect(await pictures.first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeLessThanOrEqual(
    512,
  );
  expect(requested).toEqual([]);
  expect(alerts).toEqual([]);
  // The page's policy holds: a script put into it afterwards does not run either.
  const ran = await viewer.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'document.body.dataset.ran = "yes"';
    document.body.append(script);
    return document.body.dataset.ran ?? 'no';
  });
  expect(ran).toBe('no');
  await viewer.close();

  const csvDownload = page.waitForEvent('download');
  await dialog.getByRole('button', { name: CSV_BUTTON }).click();
  const csvFile = await csvDownload;
  expect(csvFile.suggestedFilename()).toBe('Lighthouses scriptalert1script-report.csv');
  const csv = (await readFile(await csvFile.path(), 'utf8')).replace(/^\uFEFF/, '');
  expect(csv).not.toContain(key);
  const lines = csv.trimEnd().split('\r\n');
  expect(lines).toHaveLength(3);
  expect(lines[0]).toMatch(/^place,model,version,model_id,version_id,rating,/);
  expect(
    lines
      .slice(1)
      .map((l) => l.split(',')[1])
      .sort(),
  ).toEqual(['Aurora XL', 'Lumen Canvas']);
  // Each model: 2 outputs and 2 votes, the last two columns.
  for (const line of lines.slice(1)) expect(line).toMatch(/,2,2$/);
});
