import { i18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { generateMessageId } from '@lingui/message-utils/generateMessageId';

// A tiny catalog for tests that check a text is translated when shown: each English message (as the
// macros write it, e.g. `The service said: <0>{text}</0>`) is given its translation under the id Lingui
// derives from it, the way the extracted catalogs key them, and the test locale is made the current one.

export function activateTestCatalog(translations: Record<string, string>, locale = 'fr'): void {
  const messages = Object.fromEntries(
    Object.entries(translations).map(([english, translated]) => [
      generateMessageId(english),
      compileMessage(translated),
    ]),
  );
  i18n.loadAndActivate({ locale, messages });
}

/** Back to English, as src/test-setup.ts starts every test file. */
export function activateEnglishForTests(): void {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
}
