import { i18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { COMMAND_KEY } from '../lib/command-key';
import { SHORTCUTS, shortcutFor, shortcutsOf, type KeyPress, type Shortcut } from './shortcuts';

const press = (key: string, init: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  target: document.body,
  ...init,
});
const textarea = () => document.createElement('textarea');

describe('shortcutFor', () => {
  it('names the shortcut a key press is, among those asked', () => {
    expect(shortcutFor(['help'], press('?'))).toBe('help');
    expect(shortcutFor(['viewer.star', 'viewer.rate'], press('3'))).toBe('viewer.rate');
    expect(shortcutFor(['gallery.selectAll'], press('a', { ctrlKey: true }))).toBe('gallery.selectAll');
    expect(shortcutFor(['gallery.selectAll'], press('A', { metaKey: true }))).toBe('gallery.selectAll');
    expect(shortcutFor(['compare.undo', 'compare.redo'], press('Z', { ctrlKey: true, shiftKey: true }))).toBe(
      'compare.redo',
    );
  });

  it('is none for a key with a modifier the shortcut does not take, or a shortcut not asked', () => {
    expect(shortcutFor(['viewer.star'], press('s', { ctrlKey: true }))).toBeNull();
    expect(shortcutFor(['gallery.selectAll'], press('a', { ctrlKey: true, altKey: true }))).toBeNull();
    expect(shortcutFor(['viewer.star'], press('?'))).toBeNull();
  });

  it('is none while typing in a field, but for a shortcut of the field', () => {
    expect(shortcutFor(['help'], press('?', { target: textarea() }))).toBeNull();
    expect(shortcutFor(['viewer.previous'], press('ArrowLeft', { target: textarea() }))).toBeNull();
    expect(shortcutFor(['compare.undo'], press('z', { ctrlKey: true, target: textarea() }))).toBeNull();
    expect(shortcutFor(['studio.generate'], press('Enter', { ctrlKey: true, target: textarea() }))).toBe(
      'studio.generate',
    );
  });
});

describe('shortcutsOf', () => {
  it('lists a screen’s own shortcuts, then "?", and no other screen’s', () => {
    const gallery = shortcutsOf('gallery');
    expect(gallery.map((s) => s.keys)).toEqual([`${COMMAND_KEY} + A`, 'Esc', '?']);
    const described = (screen: 'viewer' | 'studio') =>
      shortcutsOf(screen).map((s) => (s.description ? i18n._(s.description) : ''));
    expect(described('viewer')).toContain('Star or unstar');
    expect(described('studio')).not.toContain('Star or unstar');
    expect(shortcutsOf('usage').map((s) => s.keys)).toEqual(['?']);
  });

  it('gives every shortcut listed its keys and a description', () => {
    const all: Shortcut[] = Object.values(SHORTCUTS);
    for (const s of all.filter((x) => x.keys)) {
      expect(s.description).toBeDefined();
      if (s.description) expect(i18n._(s.description)).not.toBe('');
    }
  });
});
