// The key that goes with a letter in a shortcut, as this device's keyboard names it: ⌘ on Apple's
// (macOS, iPadOS, iOS), Ctrl elsewhere. The shortcuts themselves accept either (shortcuts.ts).
// Naming only the device's own key is what a reader there expects, and keeps a glyph most non-Apple
// system fonts lack (⌘) off their screens: drawing it sent the browser through every font of the
// stack and then a search for a fallback font, on the studio's first layout.

/**
 * Whether a platform string (navigator.platform, or a user agent) is an Apple device's.
 * @internal
 */
export function isApplePlatform(platform: string): boolean {
  return /Mac|iPhone|iPad|iPod/.test(platform);
}

export const COMMAND_KEY: 'Ctrl' | '⌘' =
  typeof navigator !== 'undefined' && isApplePlatform(navigator.platform || navigator.userAgent)
    ? '⌘'
    : 'Ctrl';
