import type { CDPSession, Locator, Page } from '@playwright/test';
import { expect, test, type Sandbox, type Studio } from './fixtures';
import { uniquePrompt } from './task-helpers';

// The Queue reordered by a finger on a phone (docs/queue.md, docs/phone.md): a held task's handle,
// pressed a moment, then dragged over another task, moves it there (dnd-kit's touch sensor), the move
// is said to a screen reader, and it is written: a reload finds the new order, and nothing was sent.

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

const queueRegion = (page: Page) => page.getByRole('region', { name: 'Queue', exact: true });
const heldItems = (page: Page) =>
  queueRegion(page).getByRole('list', { name: 'Held tasks' }).getByRole('listitem');
const heldItem = (page: Page, prompt: string) => heldItems(page).filter({ hasText: prompt });
const handleOf = (row: Locator) => row.getByRole('button', { name: /^Move / });

async function generateHeld(studio: Studio, prompt: string): Promise<void> {
  await studio.prompt.fill(prompt);
  await studio.page.getByRole('button', { name: 'Generate', exact: true }).click();
  await expect(heldItem(studio.page, prompt)).toBeVisible();
}

const postsOfTasks = async (sandbox: Sandbox) =>
  (await sandbox.requests()).filter((r) => r.method === 'POST' && r.path === '/v1/tasks');

/** Real touch input through the DevTools protocol (Chromium makes touch and pointer events of it). */
async function touch(
  cdp: CDPSession,
  type: 'touchStart' | 'touchMove' | 'touchEnd',
  point?: [number, number],
) {
  await cdp.send('Input.dispatchTouchEvent', {
    type,
    touchPoints: point ? [{ x: point[0], y: point[1], id: 0, radiusX: 4, radiusY: 4, force: 1 }] : [],
  });
}

async function centreOf(locator: Locator): Promise<[number, number]> {
  const box = (await locator.boundingBox())!;
  return [box.x + box.width / 2, box.y + box.height / 2];
}

test('a finger drags the second held task above the first; the order is written and survives a reload', async ({
  studio,
  sandbox,
  page,
}) => {
  await studio.start('personal');
  await studio.openModel('Lumen Canvas', 'image/default');
  const [a, b] = [uniquePrompt('touch order a'), uniquePrompt('touch order b')];
  await queueRegion(page).getByRole('button', { name: 'Pause queue' }).tap();
  await expect(queueRegion(page).getByRole('button', { name: 'Resume queue' })).toBeVisible();
  for (const p of [a, b]) await generateHeld(studio, p);
  await expect(heldItems(page).first()).toContainText(a);

  const handle = handleOf(heldItem(page, b));
  // The drag library is a chunk of its own, in place once the handle is described by its instructions.
  await expect(handle).toHaveAttribute('aria-describedby', /^DndDescribedBy/);
  await handle.scrollIntoViewIfNeeded();
  // A finger's target, and the page does not scroll under a finger on it.
  const box = (await handle.boundingBox())!;
  expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
  await expect(handle).toHaveCSS('touch-action', 'none');

  const cdp = await page.context().newCDPSession(page);
  const [x, y] = await centreOf(handle);
  const [, targetY] = await centreOf(handleOf(heldItem(page, a)));
  await touch(cdp, 'touchStart', [x, y]);
  // The finger rests until the drag takes the task (dnd-kit's short delay): the handle is then pressed.
  await expect(handle).toHaveAttribute('aria-pressed', 'true');
  const announcement = page.locator('[id^="DndLiveRegion"]');
  await expect(announcement).toHaveText(/^Picked up Lumen Canvas, place 2 of 2\.$/);
  const steps = 8;
  for (let i = 1; i <= steps; i++) await touch(cdp, 'touchMove', [x, y + ((targetY - 20 - y) * i) / steps]);
  await expect(announcement).toHaveText('Lumen Canvas is over place 1 of 2.');
  await touch(cdp, 'touchEnd');

  await expect(announcement).toHaveText('Lumen Canvas dropped at place 1 of 2.');
  await expect(heldItems(page).first()).toContainText(b);
  await expect(heldItems(page).nth(1)).toContainText(a);

  // Written (IndexedDB): a reload reads the same order back, still held, nothing sent.
  await page.reload();
  await expect(studio.accountButton).toBeVisible();
  await expect(heldItems(page)).toHaveCount(2);
  await expect(heldItems(page).first()).toContainText(b);
  await expect(heldItems(page).nth(1)).toContainText(a);
  expect(await postsOfTasks(sandbox)).toHaveLength(0);
});
