import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withScore, type Criterion, type ScoreSheet } from '../../model/compare/boards';
import { CellScores, CriteriaDialog } from './criteria';

// A cell's scoring (a radio group per criterion: click, arrows, or 1-5 typed) and the Criteria dialog.

afterEach(cleanup);

const LOOK: Criterion = { id: 'c-look', name: 'Look' };
const ADHERENCE: Criterion = { id: 'c-adh', name: 'Prompt adherence' };
const CELL = 'r1|lumen@v1';

/** CellScores over a live sheet of this member's ('me'), beside another member's (Ben's). */
function Scored({ blind = false, ben = 2 }: { blind?: boolean; ben?: number }) {
  const [scores, setScores] = useState<Record<string, ScoreSheet>>({
    ben: withScore(undefined, CELL, LOOK.id, ben, 1),
  });
  return (
    <CellScores
      criteria={[LOOK, ADHERENCE]}
      scores={scores}
      me="me"
      cell={CELL}
      blind={blind}
      onScore={(criterion, score) =>
        setScores((s) => ({ ...s, me: withScore(s.me, CELL, criterion, score, 2) }))
      }
    />
  );
}

describe('CellScores', () => {
  it('scores a criterion by click, by arrow keys and by typing 1-5; Clear takes it back', async () => {
    const user = userEvent.setup();
    render(<Scored />);
    const look = screen.getByRole('group', { name: 'Look' });
    await user.click(within(look).getByRole('radio', { name: '4 of 5' }));
    expect(within(look).getByRole('radio', { name: '4 of 5' })).toHaveProperty('checked', true);
    await user.keyboard('{ArrowRight}');
    expect(within(look).getByRole('radio', { name: '5 of 5' })).toHaveProperty('checked', true);
    await user.keyboard('2');
    expect(within(look).getByRole('radio', { name: '2 of 5' })).toHaveProperty('checked', true);
    // The other criterion is its own group, still unscored.
    const adherence = screen.getByRole('group', { name: 'Prompt adherence' });
    expect(within(adherence).queryByRole('radio', { checked: true })).toBeNull();
    await user.click(within(look).getByRole('button', { name: 'Clear your Look score' }));
    expect(within(look).queryByRole('radio', { checked: true })).toBeNull();
  });

  it('shows the average of everyone’s scores once revealed, and none while blind', async () => {
    const user = userEvent.setup();
    const { unmount } = render(<Scored blind />);
    await user.click(
      within(screen.getByRole('group', { name: 'Look' })).getByRole('radio', { name: '5 of 5' }),
    );
    expect(screen.queryByTestId('criterion-average')).toBeNull();
    unmount();
    render(<Scored ben={2} />);
    await user.click(
      within(screen.getByRole('group', { name: 'Look' })).getByRole('radio', { name: '5 of 5' }),
    );
    expect(
      within(screen.getByRole('group', { name: 'Look' })).getByTestId('criterion-average').textContent,
    ).toBe('Average 3.5 (2)');
  });

  it('renders nothing for a board without criteria, and a hostile criterion name as text', () => {
    const { container } = render(
      <CellScores criteria={[]} scores={{}} me="" cell={CELL} blind={false} onScore={() => undefined} />,
    );
    expect(container.innerHTML).toBe('');
    render(
      <CellScores
        criteria={[{ id: 'x', name: '<img src=x onerror=alert(1)>' }]}
        scores={{}}
        me=""
        cell={CELL}
        blind={false}
        onScore={() => undefined}
      />,
    );
    expect(screen.getByRole('group', { name: '<img src=x onerror=alert(1)>' })).toBeTruthy();
    expect(document.querySelector('img')).toBeNull();
  });
});

describe('CriteriaDialog', () => {
  it('adds, renames and removes criteria; blank names are dropped; Cancel keeps the board’s', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn<(c: Criterion[]) => void>();
    render(<CriteriaDialog open onOpenChange={() => undefined} criteria={[LOOK]} keeps onSave={onSave} />);
    const dialog = screen.getByRole('dialog', { name: 'Criteria' });
    await user.click(within(dialog).getByRole('button', { name: 'Add criterion' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Criterion 2' }), ' Artefacts ');
    await user.click(within(dialog).getByRole('button', { name: 'Add criterion' }));
    await user.clear(within(dialog).getByRole('textbox', { name: 'Criterion 1' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Criterion 1' }), 'Aesthetics');
    await user.click(within(dialog).getByRole('button', { name: 'Save criteria' }));
    expect(onSave).toHaveBeenCalledWith([
      { id: LOOK.id, name: 'Aesthetics' },
      { id: expect.any(String), name: 'Artefacts' },
    ]);
  });

  it('stops at eight, and says so when the team space cannot keep criteria (Save disabled)', async () => {
    const user = userEvent.setup();
    const eight = Array.from({ length: 8 }, (_, i) => ({ id: `c${i}`, name: `C${i}` }));
    const { unmount } = render(
      <CriteriaDialog open onOpenChange={() => undefined} criteria={eight} keeps onSave={() => undefined} />,
    );
    expect(screen.getByRole('button', { name: 'Add criterion' })).toHaveProperty('disabled', true);
    unmount();
    render(
      <CriteriaDialog
        open
        onOpenChange={() => undefined}
        criteria={[]}
        keeps={false}
        onSave={() => undefined}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('cannot keep criteria or scores');
    expect(screen.getByRole('button', { name: 'Save criteria' })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
  });
});
