import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import type * as LanguageTable from '../lib/i18n/language-table';
import { LanguageChoice } from './language-choice';

// docs/i18n.md "How to add a language": a row added to the table (src/lib/i18n/language-table.ts) is
// offered here with no other change (the rest of the studio: src/lib/i18n/add-a-language.test.ts).

vi.mock('../lib/i18n/language-table', async (importOriginal) => {
  const table = await importOriginal<typeof LanguageTable>();
  return { ...table, LANGUAGE_TABLE: [...table.LANGUAGE_TABLE, { tag: 'qaa', name: 'Qaa', rtl: true }] };
});

afterEach(cleanup);

it('offers every language of the table, each named in itself, and never the pseudo-locale', () => {
  render(<LanguageChoice />);
  const options = screen.getAllByRole('option');
  expect(options.map((o) => [o.getAttribute('value'), o.getAttribute('lang'), o.textContent])).toEqual([
    ['en', 'en', 'English'],
    ['zh-CN', 'zh-CN', '简体中文'],
    ['ja', 'ja', '日本語'],
    ['ko', 'ko', '한국어'],
    ['es', 'es', 'Español'],
    ['fr', 'fr', 'Français'],
    ['de', 'de', 'Deutsch'],
    ['pt-BR', 'pt-BR', 'Português (Brasil)'],
    ['ar', 'ar', 'العربية'],
    ['qaa', 'qaa', 'Qaa'],
  ]);
  expect(screen.getByRole('combobox', { name: 'Language' })).toHaveProperty('value', 'en');
});
