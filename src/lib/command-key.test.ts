import { describe, expect, it } from 'vitest';
import { COMMAND_KEY, isApplePlatform } from './command-key';

describe('the command key', () => {
  it('is ⌘ on Apple’s platforms (an iPad says MacIntel), Ctrl on every other', () => {
    for (const platform of ['MacIntel', 'iPhone', 'iPad', 'Macintosh; Intel Mac OS X 10_15_7'])
      expect(isApplePlatform(platform), platform).toBe(true);
    for (const platform of ['Win32', 'Linux x86_64', 'Linux armv8l', 'X11; CrOS x86_64', ''])
      expect(isApplePlatform(platform), platform).toBe(false);
  });

  it('follows the platform this page runs on', () => {
    expect(COMMAND_KEY).toBe(isApplePlatform(navigator.platform || navigator.userAgent) ? '⌘' : 'Ctrl');
  });
});
