import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it } from 'vitest';
import { setTheme, THEME_KEY } from '../lib/theme';
import { ThemeChoice } from './theme-choice';

afterEach(() => {
  cleanup();
  setTheme('system');
});

it('"Theme": Dark is drawn and remembered at once, System forgets it', async () => {
  const user = userEvent.setup();
  render(<ThemeChoice />);
  const group = screen.getByRole('radiogroup', { name: 'Theme' });
  expect(group).toBeTruthy();
  expect(screen.getByRole<HTMLInputElement>('radio', { name: 'System' }).checked).toBe(true);
  await user.click(screen.getByRole('radio', { name: 'Dark' }));
  expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Dark' }).checked).toBe(true);
  expect(document.documentElement.dataset.theme).toBe('dark');
  expect(localStorage.getItem(THEME_KEY)).toBe('dark');
  await user.click(screen.getByRole('radio', { name: 'System' }));
  expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
  expect(localStorage.getItem(THEME_KEY)).toBeNull();
});
