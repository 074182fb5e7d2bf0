import type * as testingLibrary from '@testing-library/react';
import { configure } from '@testing-library/react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { createElement, type ComponentType, type ReactNode } from 'react';
import { toast } from 'sonner';
import { afterAll, vi } from 'vitest';

// Unit tests measure no speed (the bench does): findBy* and waitFor wait up to 5 s instead of 1 s, so a
// loaded machine (CI, eight developers on two cores) does not fail a test for time alone.
configure({ asyncUtilTimeout: 5_000 });

// Every message through Lingui (src/lib/i18n/i18n.ts): English, and components rendered alone get the
// provider the App gives them (a test's own wrapper is kept, inside it).

i18n.loadAndActivate({ locale: 'en', messages: {} });

vi.mock('@testing-library/react', async (importOriginal) => {
  const rtl = await importOriginal<typeof testingLibrary>();
  const withI18n =
    (Inner?: ComponentType<{ children: ReactNode }>) =>
    ({ children }: { children: ReactNode }) =>
      createElement(I18nProvider, { i18n }, Inner ? createElement(Inner, null, children) : children);
  return {
    ...rtl,
    render: ((ui: ReactNode, options?: Parameters<typeof rtl.render>[1]) =>
      rtl.render(ui, { ...options, wrapper: withI18n(options?.wrapper) })) as typeof rtl.render,
    renderHook: ((hook: (props: unknown) => unknown, options?: Parameters<typeof rtl.renderHook>[1]) =>
      rtl.renderHook(hook, { ...options, wrapper: withI18n(options?.wrapper) })) as typeof rtl.renderHook,
  };
});

// The notice library (sonner) removes a dismissed notice after a 200 ms exit timer that it does not clear
// when its area unmounts. A page (jsdom) torn down inside that window makes the timer throw "window is not
// defined" into the run, so each file's page outlives its last test by a little more than that. Only a
// file that showed a notice can have that timer (sonner's history holds every notice shown, and each file
// loads its own sonner); the others, most of them, end at once (145 files x 250 ms on one worker).
afterAll(async () => {
  if (typeof window !== 'undefined' && toast.getHistory().length > 0)
    await new Promise((resolve) => setTimeout(resolve, 250));
});
