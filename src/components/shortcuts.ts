import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { COMMAND_KEY } from '../lib/command-key';
import { isTypingTarget } from '../lib/typing';

// Every keyboard shortcut of the studio, in one list: the screen it works on, its keys as shown, what it
// does, and the test of a key event. Handlers ask `shortcutFor` which of theirs a key press is (it is
// never one while typing in a field, unless the shortcut is meant for a field); "?" shows the list of
// the screen in view ("Keyboard shortcuts", shortcuts-dialog.tsx).

export type ShortcutScreen = 'everywhere' | 'studio' | 'gallery' | 'viewer' | 'compare' | 'usage';

/** What a key event carries that a shortcut looks at (a React or a DOM event). */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  target: EventTarget | null;
}

export interface Shortcut {
  screen: ShortcutScreen;
  /** As shown in the list. */
  keys: string;
  /** What it does, in the studio's language when shown (`i18n._`); none for the second half of a pair. */
  description?: MessageDescriptor;
  matches: (e: KeyPress) => boolean;
  /** A shortcut of a field (Ctrl+Enter sends the form from it): it works while typing there. */
  inField?: boolean;
}

const plain = (e: KeyPress) => !e.ctrlKey && !e.metaKey && !e.altKey;
const command = (e: KeyPress) => (e.ctrlKey || e.metaKey) && !e.altKey;
const key =
  (...keys: string[]) =>
  (e: KeyPress) =>
    plain(e) && keys.includes(e.key);

/** @internal */
export const SHORTCUTS = {
  help: {
    screen: 'everywhere',
    keys: '?',
    description: msg`Show or hide these shortcuts`,
    matches: key('?'),
  },

  'studio.generate': {
    screen: 'studio',
    keys: `${COMMAND_KEY} + Enter`,
    description: msg`Generate, from any field of the form`,
    matches: (e) => command(e) && e.key === 'Enter',
    inField: true,
  },
  'studio.clearSearch': {
    screen: 'studio',
    keys: 'Esc',
    description: msg`Clear the catalog search (in the search field)`,
    matches: key('Escape'),
    inField: true,
  },
  'studio.maskUndo': {
    screen: 'studio',
    keys: `${COMMAND_KEY} + Z`,
    description: msg`Undo the last stroke of a mask`,
    matches: (e) => command(e) && !e.shiftKey && e.key.toLowerCase() === 'z',
    // From the brush size slider too: the painter has nothing to type in, and a slider has no undo.
    inField: true,
  },

  'gallery.selectAll': {
    screen: 'gallery',
    keys: `${COMMAND_KEY} + A`,
    description: msg`Select every output shown`,
    matches: (e) => command(e) && e.key.toLowerCase() === 'a',
  },
  'gallery.clearSelection': {
    screen: 'gallery',
    keys: 'Esc',
    description: msg`Clear the selection`,
    matches: key('Escape'),
  },

  'viewer.previous': {
    screen: 'viewer',
    keys: '← / →',
    description: msg`Previous / next output`,
    matches: key('ArrowLeft'),
  },
  'viewer.next': { screen: 'viewer', keys: '', matches: key('ArrowRight') },
  'viewer.star': { screen: 'viewer', keys: 'S', description: msg`Star or unstar`, matches: key('s', 'S') },
  'viewer.rate': {
    screen: 'viewer',
    keys: '1 – 5',
    description: msg`Rate (the same number again clears)`,
    matches: (e) => plain(e) && /^[1-5]$/.test(e.key),
  },
  'viewer.clearRating': {
    screen: 'viewer',
    keys: '0',
    description: msg`Clear the rating`,
    matches: key('0'),
  },
  'viewer.fit': { screen: 'viewer', keys: 'F', description: msg`Fit the image`, matches: key('f', 'F') },
  'viewer.actual': { screen: 'viewer', keys: 'A', description: msg`Image at 100%`, matches: key('a', 'A') },
  'viewer.zoomIn': {
    screen: 'viewer',
    keys: '+ / −',
    description: msg`Zoom in / out`,
    matches: key('+', '='),
  },
  'viewer.zoomOut': { screen: 'viewer', keys: '', matches: key('-') },
  'viewer.loop': { screen: 'viewer', keys: 'L', description: msg`Loop the video`, matches: key('l', 'L') },
  'viewer.previousFrame': {
    screen: 'viewer',
    keys: ', / .',
    description: msg`Video: previous / next frame`,
    matches: key(','),
  },
  'viewer.nextFrame': { screen: 'viewer', keys: '', matches: key('.') },
  'viewer.compareSource': {
    screen: 'viewer',
    keys: 'C',
    description: msg`Compare with the source (edits)`,
    matches: key('c', 'C'),
  },
  'viewer.close': {
    screen: 'viewer',
    keys: 'Esc',
    description: msg`Close the viewer`,
    matches: key('Escape'),
  },

  'compare.undo': {
    screen: 'compare',
    keys: `${COMMAND_KEY} + Z`,
    description: msg`Undo your last edit of a team board`,
    matches: (e) => command(e) && !e.shiftKey && e.key.toLowerCase() === 'z',
  },
  'compare.redo': {
    screen: 'compare',
    keys: `${COMMAND_KEY} + Shift + Z`,
    description: msg`Redo it`,
    matches: (e) => command(e) && e.shiftKey && e.key.toLowerCase() === 'z',
  },
} satisfies Record<string, Shortcut>;

export type ShortcutId = keyof typeof SHORTCUTS;

/** Which of `ids` the key press is, if any; none while typing in a field (but a field's own). */
export function shortcutFor<Id extends ShortcutId>(ids: readonly Id[], e: KeyPress): Id | null {
  const typing = isTypingTarget(e.target);
  for (const id of ids) {
    const s: Shortcut = SHORTCUTS[id];
    if ((!typing || s.inField) && s.matches(e)) return id;
  }
  return null;
}

/**
 * The list shown for a screen: its own shortcuts, then those that work everywhere. Entries without
 * keys are the second half of a pair shown as one line ("← / →").
 */
export function shortcutsOf(screen: Exclude<ShortcutScreen, 'everywhere'>): Shortcut[] {
  const all: Shortcut[] = Object.values(SHORTCUTS);
  return [...all.filter((s) => s.screen === screen), ...all.filter((s) => s.screen === 'everywhere')].filter(
    (s) => s.keys,
  );
}
