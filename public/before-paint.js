// Drawn on <html> before the first paint: the colour theme and the language chosen in the studio. The
// build inlines it, minified, into index.html's <head> (scripts/first-paint.ts), so a first visit waits
// for no request before it paints; the Content-Security-Policy allows it by its hash, computed at build
// from the text inlined. The dev server serves it as a file (index.html). Either way its languages are
// filled in first (below): as it is here, it does not run.

// The theme (src/lib/theme.ts).
try {
  var theme = localStorage.getItem('media-studio:theme');
  if (theme === 'light' || theme === 'dark') document.documentElement.setAttribute('data-theme', theme);
} catch {
  // Storage refused: the system's theme, which the CSS follows by itself.
}

// The language (src/lib/i18n/i18n.ts, docs/i18n.md): the one chosen on this
// device (localStorage, written by src/lib/i18n/i18n.ts), else the first of the browser's languages the
// studio speaks, else English. It sets `lang` and `dir`, which the studio reads as its starting
// language. The connect screen in index.html is prerendered in English: in another language it stays
// hidden (`data-language-pending`, src/index.css) until the studio has drawn it in that language, so
// English never flashes first.
(function () {
  // The languages' tags, those written right to left, and the pseudo-locale's tag: placeholders,
  // filled in from src/lib/i18n/language-table.ts by scripts/before-paint.ts when the build inlines
  // this script and when the dev server serves it.
  /* global __STUDIO_LANGUAGES__, __STUDIO_RTL_LANGUAGES__, __STUDIO_PSEUDO_LANGUAGE__ */
  var SUPPORTED = __STUDIO_LANGUAGES__;
  var RIGHT_TO_LEFT = __STUDIO_RTL_LANGUAGES__;
  var PSEUDO = __STUDIO_PSEUDO_LANGUAGE__;
  var KEY = 'media-studio:language';
  // A tag the studio speaks for a browser language: exact, else by its language (pt-PT → pt-BR,
  // zh-Hans-SG → zh-CN). Chinese in traditional script is not simplified Chinese: no match.
  function match(tag) {
    var lower = String(tag).toLowerCase();
    for (var i = 0; i < SUPPORTED.length; i++) if (SUPPORTED[i].toLowerCase() === lower) return SUPPORTED[i];
    var base = lower.split('-')[0];
    if (base === 'zh' && /-(hant|tw|hk|mo)(-|$)/.test(lower)) return null;
    for (var j = 0; j < SUPPORTED.length; j++)
      if (SUPPORTED[j].toLowerCase().split('-')[0] === base) return SUPPORTED[j];
    return null;
  }
  function choose() {
    try {
      var stored = localStorage.getItem(KEY);
      // The pseudo-locale, for tests: chosen only by being stored.
      if (stored === PSEUDO || SUPPORTED.indexOf(stored) !== -1) return stored;
    } catch {
      // Storage refused: the browser's languages.
    }
    var wanted =
      navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
    for (var k = 0; k < wanted.length; k++) {
      var found = wanted[k] && match(wanted[k]);
      if (found) return found;
    }
    return 'en';
  }
  var language = choose();
  var root = document.documentElement;
  root.lang = language;
  root.dir = RIGHT_TO_LEFT.indexOf(language) !== -1 ? 'rtl' : 'ltr';
  if (language !== 'en') {
    root.setAttribute('data-language-pending', '');
    // Never hidden for good: should the studio's script not run, the English page after a moment.
    setTimeout(function () {
      root.removeAttribute('data-language-pending');
    }, 4000);
  }
})();

// A returning visitor (src/features/connect/credentials-store.ts): with a key stored in this tab or
// remembered on this device, the studio reconnects by itself, so the prerendered connect screen would only
// flash by (and be hydrated for nothing). It stays hidden (`data-reconnecting`, src/index.css) until the
// studio, or the connect screen with the reason it could not reconnect, is drawn (src/app/studio.tsx).
// Only whether a key is there is read here, never the key. Never hidden for good: after a moment, what
// is drawn by then (src/main.tsx).
(function () {
  function stored(storage) {
    try {
      // Reading localStorage itself throws where storage is refused.
      return !!storage().getItem('media-studio:api-key');
    } catch {
      return false;
    }
  }
  if (
    !stored(function () {
      return localStorage;
    }) &&
    !stored(function () {
      return sessionStorage;
    })
  )
    return;
  var root = document.documentElement;
  // Without a service worker serving the code (a first visit, or the browser dropped it) the studio
  // takes seconds to arrive: its frame is shown meanwhile (`shell`, src/app/reconnecting-shell.tsx), not
  // a blank page. With the code at hand the studio is drawn at once, and the frame would only flash by.
  var shell = !(navigator.serviceWorker && navigator.serviceWorker.controller);
  root.setAttribute('data-reconnecting', shell ? 'shell' : '');
  // A frame saying "Reconnecting…" can wait longer than a blank page for the studio.
  setTimeout(
    function () {
      root.removeAttribute('data-reconnecting');
    },
    shell ? 15000 : 4000,
  );
  // While the studio's code downloads the main thread waits: the browser's locale data (ICU), which a
  // page's first Intl formatter loads (30-50 ms in Chromium here, once per page), is loaded now, each kind
  // the studio's first screen formats with in a task of its own, and not in the middle of that screen's
  // first render (docs/benchmarks.md "lighthouse"). With the frame shown, after its first paint.
  function warm() {
    [
      function () {
        new Intl.NumberFormat(root.lang).format(1);
      },
      function () {
        new Intl.ListFormat(root.lang, { type: 'disjunction' }).format(['a', 'b']);
      },
      function () {
        new Intl.DateTimeFormat(root.lang, { dateStyle: 'medium' }).format(0);
      },
    ].forEach(function (formatter) {
      setTimeout(function () {
        try {
          formatter();
        } catch {
          // An old engine without one of them: the studio makes do (src/lib/intl-format.ts).
        }
      }, 0);
    });
  }
  if (!shell) warm();
  else
    document.addEventListener('DOMContentLoaded', function () {
      requestAnimationFrame(warm);
    });
})();
