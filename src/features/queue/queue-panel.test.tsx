import 'fake-indexeddb/auto';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { deleteDB } from 'idb';
import { NoticeArea } from '../../components/notice-area';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskCreated } from '../../../contract/task';
import { DB_NAME, db, resetDbForTests } from '../../model/db';
import type { HistoryEntry } from '../../model/history/history-types';
import { TaskQueue } from '../../model/queue/queue';
import { stubLayout } from '../../test/gallery-test-utils';
import { QueuePanel, VIRTUAL_FROM } from './queue-panel';

const meta = (credits: number): HistoryEntry['meta'] => ({
  title: 'Model One',
  subtitle: 'v1',
  kind: 'model',
  mediaType: 'image',
  category: 'image/default',
  modelId: 'm1',
  versionId: 'v1',
  estimatedSeconds: 5,
  quotedCredits: credits,
});

let queue: TaskQueue;
let sent: string[];

async function hold(prompts: string[], credits = 4): Promise<void> {
  await act(async () => {
    await queue.enqueue(
      prompts.map((prompt) => ({
        request: { interfaceId: 'm1', versionId: 'v1', params: { prompt } },
        meta: meta(credits),
      })),
    );
  });
}

const rows = () => within(screen.getByRole('list', { name: 'Held tasks' })).getAllByRole('listitem');
const order = () => rows().map((r) => within(r).getByText(/^p\d$/).textContent);
/** The panel's own status (where a move by ArrowUp/ArrowDown is said). */
const panelStatus = () => within(screen.getByRole('region', { name: 'Queue' })).getByRole('status');
/** dnd-kit's live region (in the body): what a screen reader hears of a drag. */
const dragAnnouncement = () => document.querySelector('[id^="DndLiveRegion"]')?.textContent ?? '';
/** The drag library is a chunk the panel fetches once it holds a task: waits for it to be in place. */
async function dragLoaded(): Promise<void> {
  await waitFor(() =>
    expect(rows()[0]!.querySelector('button')?.getAttribute('aria-describedby')).toMatch(/^DndDescribedBy/),
  );
}

/**
 * happy-dom lays nothing out: each held row is given a box, 100 px below the one before, so dnd-kit's
 * keyboard sensor finds the row under a moved one.
 */
function stubRowBoxes(): () => void {
  const proto = HTMLElement.prototype;
  const saved = Object.getOwnPropertyDescriptor(proto, 'getBoundingClientRect');
  const original = proto.getBoundingClientRect;
  proto.getBoundingClientRect = function (this: HTMLElement) {
    const row = this.closest('[data-testid="queue-item"]');
    if (!row?.parentElement) return original.call(this);
    const top = [...row.parentElement.children].indexOf(row) * 100;
    return DOMRect.fromRect({ x: 0, y: top, width: 300, height: 90 });
  };
  return () => {
    if (saved) Object.defineProperty(proto, 'getBoundingClientRect', saved);
  };
}

describe('QueuePanel', () => {
  beforeEach(async () => {
    (await db()).close();
    resetDbForTests();
    await deleteDB(DB_NAME);
    sent = [];
    let n = 0;
    queue = new TaskQueue({
      connectionId: 'c',
      submit: async (request, _meta, { idempotencyKey }) => {
        sent.push(String(request.params.prompt));
        const created = { taskId: `t${++n}`, status: 'queued' } as TaskCreated;
        return { kind: 'created', created, idempotencyKey };
      },
      freeSlots: () => 0,
      storage: null,
      leader: true,
    });
  });
  afterEach(() => {
    cleanup();
    queue.dispose();
  });

  it('a long queue renders only the rows in view, and a task moved by keyboard keeps its focused handle', async () => {
    const restore = stubLayout(600, 120);
    try {
      render(<QueuePanel queue={queue} balance={null} capRemaining={null} />);
      const total = VIRTUAL_FROM * 10;
      await act(async () => {
        await queue.enqueue(
          Array.from({ length: total }, (_, i) => ({
            request: { interfaceId: 'm1', versionId: 'v1', params: { prompt: `q${i + 1}` } },
            meta: meta(1),
          })),
        );
      });
      await waitFor(() => expect(rows().length).toBeGreaterThan(0));
      expect(rows().length).toBeLessThan(30);
      expect(rows()[0]!.getAttribute('aria-setsize')).toBe(String(total));
      // With the drag library in place (rows placed by `top`, measured by the drag too).
      await dragLoaded();
      const handle = within(rows()[0]!).getByRole('button', { name: `Move Model One, place 1 of ${total}` });
      handle.focus();
      for (let i = 0; i < 3; i += 1) {
        await act(async () => {
          fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
        });
      }
      await waitFor(() =>
        expect(document.activeElement?.getAttribute('aria-label')).toBe(
          `Move Model One, place 4 of ${total}`,
        ),
      );
      expect(queue.snapshot().items[3]!.request.params.prompt).toBe('q1');
      expect(panelStatus().textContent).toBe(`Moved to place 4 of ${total}.`);
    } finally {
      restore();
    }
  });

  it('moves a task with ArrowUp/ArrowDown on its handle and says where it went', async () => {
    render(<QueuePanel queue={queue} balance={100} capRemaining={null} />);
    await hold(['p1', 'p2', 'p3']);
    const handle = within(rows()[2]!).getByRole('button', { name: /^Move Model One, place 3 of 3/ });
    await act(async () => {
      fireEvent.keyDown(handle, { key: 'ArrowUp' });
    });
    expect(order()).toEqual(['p1', 'p3', 'p2']);
    expect(panelStatus().textContent).toBe('Moved to place 2 of 3.');
  });

  it('with the drag library loaded, ArrowUp/ArrowDown on the handle still writes the new order', async () => {
    render(<QueuePanel queue={queue} balance={100} capRemaining={null} />);
    await hold(['p1', 'p2', 'p3']);
    await dragLoaded();
    const handle = within(rows()[0]!).getByRole('button', { name: /^Move Model One, place 1 of 3/ });
    // A plain button still (dnd-kit's role description left out), described by the drag's instructions.
    expect(handle.getAttribute('aria-roledescription')).toBeNull();
    expect(document.getElementById(handle.getAttribute('aria-describedby')!)?.textContent).toMatch(
      /^Press ArrowUp or ArrowDown to move this task one place\./,
    );
    await act(async () => {
      fireEvent.keyDown(handle, { key: 'ArrowDown', code: 'ArrowDown' });
    });
    expect(order()).toEqual(['p2', 'p1', 'p3']);
    expect(queue.snapshot().items.map((item) => item.request.params.prompt)).toEqual(['p2', 'p1', 'p3']);
    expect(panelStatus().textContent).toBe('Moved to place 2 of 3.');
  });

  it("dnd-kit's sortable announces a move (Space, ArrowDown, Space) in the studio's words and writes it", async () => {
    const restore = stubRowBoxes();
    try {
      render(<QueuePanel queue={queue} balance={100} capRemaining={null} />);
      await hold(['p1', 'p2', 'p3']);
      await dragLoaded();
      const handle = within(rows()[0]!).getByRole('button', { name: /^Move Model One, place 1 of 3/ });
      handle.focus();
      await act(async () => {
        fireEvent.keyDown(handle, { key: ' ', code: 'Space' });
      });
      await waitFor(() => expect(dragAnnouncement()).toBe('Picked up Model One, place 1 of 3.'));
      expect(handle.getAttribute('aria-pressed')).toBe('true');
      // Lifted, the arrows are the drag's: nothing is written until the drop.
      await act(async () => {
        fireEvent.keyDown(handle, { key: 'ArrowDown', code: 'ArrowDown' });
      });
      await waitFor(() => expect(dragAnnouncement()).toBe('Model One is over place 2 of 3.'));
      expect(queue.snapshot().items.map((item) => item.request.params.prompt)).toEqual(['p1', 'p2', 'p3']);
      await act(async () => {
        fireEvent.keyDown(handle, { key: ' ', code: 'Space' });
      });
      await waitFor(() => expect(dragAnnouncement()).toBe('Model One dropped at place 2 of 3.'));
      await waitFor(() => expect(order()).toEqual(['p2', 'p1', 'p3']));
      expect(queue.snapshot().items.map((item) => item.request.params.prompt)).toEqual(['p2', 'p1', 'p3']);
      // The drag said it; the panel's own status did not say it again.
      expect(panelStatus().textContent).toBe('');

      // Escape puts a lifted task back where it was, and says so.
      const moved = within(rows()[1]!).getByRole('button', { name: /^Move Model One, place 2 of 3/ });
      moved.focus();
      await act(async () => {
        fireEvent.keyDown(moved, { key: ' ', code: 'Space' });
      });
      await waitFor(() => expect(dragAnnouncement()).toBe('Picked up Model One, place 2 of 3.'));
      await act(async () => {
        fireEvent.keyDown(moved, { key: 'Escape', code: 'Escape' });
      });
      await waitFor(() =>
        expect(dragAnnouncement()).toBe('Move cancelled: Model One stays at place 2 of 3.'),
      );
      expect(order()).toEqual(['p2', 'p1', 'p3']);
    } finally {
      restore();
    }
  });

  it('Remove takes a task out unsent; Undo in the notice brings it back', async () => {
    render(
      <>
        <QueuePanel queue={queue} balance={100} capRemaining={null} />
        <NoticeArea />
      </>,
    );
    await hold(['p1', 'p2']);
    await act(async () => {
      fireEvent.click(within(rows()[0]!).getByRole('button', { name: 'Remove' }));
    });
    await waitFor(() => expect(order()).toEqual(['p2']));
    const undo = await screen.findByRole('button', { name: 'Undo' });
    await act(async () => {
      fireEvent.click(undo);
    });
    await waitFor(() => expect(order()).toEqual(['p1', 'p2']));
    expect(sent).toEqual([]);
    // The notice leaves after its exit animation (a timer of the notice library): waited for here, so
    // no timer of this test fires after its page is gone.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull());
  });

  it("totals the held credits and marks the first task over today's cap", async () => {
    render(<QueuePanel queue={queue} balance={100} capRemaining={6} />);
    await hold(['p1', 'p2', 'p3']);
    expect(screen.getByTestId('queue-cost').textContent).toBe(
      "Held: 12 credits · balance 100 credits · 6 credits left under today's cap" +
        "Not everything fits: the first task marked below would be refused (over today's cap).",
    );
    expect(within(rows()[1]!).queryByText("Would be refused: today's cap")).not.toBeNull();
    expect(within(rows()[0]!).queryByText(/Would be refused/)).toBeNull();
  });

  it('counts the tasks of unknown price in the total, one or many, and a refusal over the balance', async () => {
    render(<QueuePanel queue={queue} balance={5} capRemaining={null} />);
    await hold(['p1', 'p2']);
    await act(async () => {
      await queue.enqueue([
        {
          request: { interfaceId: 'm1', versionId: 'v1', params: { prompt: 'p3' } },
          meta: { ...meta(0), quotedCredits: null },
        },
      ]);
    });
    const cost = screen.getByTestId('queue-cost');
    expect(cost.textContent).toBe(
      'Held: 8 credits (and 1 task of unknown price) · balance 5 credits' +
        'Not everything fits: the first task marked below would be refused (over the balance).',
    );
    await act(async () => {
      await queue.enqueue([
        {
          request: { interfaceId: 'm1', versionId: 'v1', params: { prompt: 'p4' } },
          meta: { ...meta(0), quotedCredits: null },
        },
      ]);
    });
    expect(cost.textContent).toContain('Held: 8 credits (and 2 tasks of unknown price) · balance 5 credits');
    expect(cost.querySelector('strong')?.textContent).toBe('8 credits');
  });

  it('Pause queue and Resume queue switch the queue', async () => {
    render(<QueuePanel queue={queue} balance={null} capRemaining={null} />);
    fireEvent.click(screen.getByRole('button', { name: 'Pause queue' }));
    expect(queue.snapshot().settings.paused).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Resume queue' }));
    expect(queue.snapshot().settings.paused).toBe(false);
  });
});
