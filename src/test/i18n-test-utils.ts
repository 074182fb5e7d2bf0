import { i18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { generateMessageId } from '@lingui/message-utils/generateMessageId';

// A made-up language for tests: the messages given, by their English (as the code writes them, e.g.
// 'Needs {param}'), and English for the rest, as a catalog that lacks a message falls back to it
// (docs/i18n.md). Tests that render wrap a change of language in act().

/** Makes the studio speak a test language ('fr') with these translations. */
export function speak(translations: Record<string, string>): void {
  const messages = Object.fromEntries(
    Object.entries(translations).map(([english, text]) => [generateMessageId(english), compileMessage(text)]),
  );
  i18n.loadAndActivate({ locale: 'fr', messages });
}

/** Back to English, as src/test-setup.ts starts every test file. */
export function speakEnglish(): void {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
}
