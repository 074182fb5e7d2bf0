import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PhoneNav } from './phone-nav';

afterEach(cleanup);

describe('PhoneNav', () => {
  it('names the three destinations and marks the one shown', () => {
    render(<PhoneNav current="results" onGo={vi.fn()} draftCount={null} />);
    const nav = screen.getByRole('navigation', { name: 'Destinations' });
    expect(nav).toBeTruthy();
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Create', 'Results', 'Compare']);
    expect(screen.getByRole('button', { name: 'Results' }).getAttribute('aria-current')).toBe('page');
  });

  it('shows the models waiting for a board as a count, said in the singular for one', () => {
    const { rerender } = render(<PhoneNav current="create" onGo={vi.fn()} draftCount={1} />);
    // On screen the count alone: the rest is for screen readers (sr-only).
    expect(screen.getAllByRole('button')[2]!.textContent).toBe('(1 model added)Compare');
    expect(screen.getByRole('button', { name: /\(\s?1 model added\)\s?Compare/ })).toBeTruthy();
    rerender(<PhoneNav current="create" onGo={vi.fn()} draftCount={3} />);
    expect(screen.getAllByRole('button')[2]!.textContent).toBe('(3 models added)Compare');
    expect(screen.getByRole('button', { name: /\(\s?3 models added\)\s?Compare/ })).toBeTruthy();
  });
});
