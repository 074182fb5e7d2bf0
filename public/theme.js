// The theme chosen in the studio (src/lib/theme.ts), drawn on <html> before the first paint. A blocking
// script from the studio's own origin: the Content-Security-Policy allows no inline script.
try {
  var theme = localStorage.getItem('media-studio:theme');
  if (theme === 'light' || theme === 'dark') document.documentElement.setAttribute('data-theme', theme);
} catch {
  // Storage refused: the system's theme, which the CSS follows by itself.
}
