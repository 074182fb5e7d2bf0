// A language's catalog, compiled from its .po file by @lingui/vite-plugin (src/lib/i18n/i18n.ts).
declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
