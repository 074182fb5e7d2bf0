import { i18n } from '@lingui/core';
import { generateMessageId } from '@lingui/message-utils/generateMessageId';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { activateEnglish, activateLanguage, chooseLanguage, LANGUAGE_KEY, startingLanguage } from './i18n';
import { getLocale } from '../locale';
import { readBeforePaint } from '../../../scripts/before-paint';
import { directionOf, LANGUAGES } from './languages';

const bootScript = readBeforePaint();
const root = document.documentElement;

/** public/before-paint.js as the page runs it, for a browser set to `languages`. */
function boot(languages: string[]) {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
  new Function(bootScript)();
}

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
  root.lang = 'en';
  root.dir = 'ltr';
  root.removeAttribute('data-language-pending');
  activateEnglish();
});

describe('the language before the first paint', () => {
  it('knows the same languages as the studio, and the same right-to-left ones', () => {
    const listed = (name: string) =>
      JSON.parse(new RegExp(`${name} = (\\[[^\\]]*\\])`).exec(bootScript)![1]!);
    expect(listed('SUPPORTED')).toEqual(LANGUAGES.map((l) => l.tag));
    expect(listed('RIGHT_TO_LEFT')).toEqual(
      LANGUAGES.filter((l) => directionOf(l.tag) === 'rtl').map((l) => l.tag),
    );
    expect(listed('RIGHT_TO_LEFT')).toEqual(['ar']);
  });

  it.each([
    [['ja-JP', 'en-US'], 'ja', 'ltr'],
    [['pt-PT'], 'pt-BR', 'ltr'],
    [['zh-Hans-SG'], 'zh-CN', 'ltr'],
    [['zh-TW', 'ko-KR'], 'ko', 'ltr'], // traditional Chinese is not simplified: the next one
    [['ar-EG'], 'ar', 'rtl'],
    [['nl-NL', 'de-AT'], 'de', 'ltr'],
    [['nl-NL'], 'en', 'ltr'], // none the studio speaks
  ])('for a browser in %j: %s, %s', (languages, language, dir) => {
    boot(languages);
    expect([root.lang, root.dir, startingLanguage()]).toEqual([language, dir, language]);
  });

  it('takes the language chosen on this device over the browser’s, and ignores a stored value it does not know', () => {
    localStorage.setItem(LANGUAGE_KEY, 'fr');
    boot(['ja']);
    expect(root.lang).toBe('fr');
    localStorage.setItem(LANGUAGE_KEY, 'klingon');
    boot(['ja']);
    expect(root.lang).toBe('ja');
  });

  it('hides the English prerendered page until the studio has drawn another language, and only then', () => {
    boot(['en-GB']);
    expect(root.hasAttribute('data-language-pending')).toBe(false);
    boot(['fr-FR']);
    expect(root.hasAttribute('data-language-pending')).toBe(true);
  });
});

describe('choosing a language', () => {
  it('loads its catalog, draws lang and dir, shows the page, and is remembered', async () => {
    root.setAttribute('data-language-pending', '');
    await chooseLanguage('ar');
    expect(i18n.locale).toBe('ar');
    expect([root.lang, root.dir]).toEqual(['ar', 'rtl']);
    expect(getLocale()).toBe('ar'); // numbers and dates too
    expect(root.hasAttribute('data-language-pending')).toBe(false);
    expect(localStorage.getItem(LANGUAGE_KEY)).toBe('ar');
  });

  it('the pseudo-locale changes every message: none is left in English', async () => {
    await activateLanguage('pseudo');
    const english = 'Connect to the API';
    expect(i18n._({ id: generateMessageId(english), message: english })).toBe('~~~Ćōńńēćţ ţō ţĥē ÀƤĨ~~~');
    const messages = Object.values(i18n.messages);
    expect(messages.length).toBeGreaterThan(10);
    // The text of a compiled message: its strings, and those of its plural and select forms (a nested
    // array is a placeholder: its name, then its kind and forms).
    const texts = (m: unknown): string[] =>
      typeof m === 'string'
        ? [m]
        : Array.isArray(m)
          ? m.flatMap((part) =>
              typeof part === 'string'
                ? [part]
                : Array.isArray(part) && part[2] && typeof part[2] === 'object'
                  ? Object.values(part[2] as Record<string, unknown>).flatMap(texts)
                  : [],
            )
          : [];
    // Every letter is accented: a plain Latin word is English that was not changed.
    expect(messages.flatMap(texts).filter((text) => /[A-Za-z]{2,}/.test(text))).toEqual([]);
  });
});
