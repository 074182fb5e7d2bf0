import { Trans as LinguiTrans, type TransProps } from '@lingui/react';
import { createElement, Fragment } from 'react';

// Lingui's <Trans> puts a message's text values into the translated text and then reads that text for
// rich-text tags (`<0>…</0>`, `<b>…</b>`, `<0/>`). A value that is someone's text (a member's name, a
// prompt, a preset's name) would be read too: "<b>Bea</b>" shown as "Bea", "<0/>" as another element of
// the message. Such a value is handed to Lingui as an element instead, which it places without reading.
// The build points every <Trans> the macros write here (scripts/i18n/vite-lingui.ts).

export function Trans(props: TransProps) {
  let values: TransProps['values'];
  for (const [key, value] of Object.entries(props.values ?? {})) {
    if (typeof value !== 'string' || !value.includes('<')) continue;
    values ??= { ...props.values };
    values[key] = createElement(Fragment, null, value);
  }
  return createElement(LinguiTrans, values ? { ...props, values } : props);
}
