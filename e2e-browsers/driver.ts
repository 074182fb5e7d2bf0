// The little a browser adapter must do natively; everything else (finding by role and label, waiting,
// checking) is written once in page.ts on top of it. A `css` argument is always the mark that page.ts
// put on an element it found (data-xb="<n>"); an action answers false when that element is gone (the
// page re-rendered), and page.ts then finds it again.
export interface Driver {
  /** "firefox-esr 153.7.0", "webkitgtk 2.50.6": what ran, for the log. */
  readonly name: string;
  goto(url: string): Promise<void>;
  reload(): Promise<void>;
  /** Runs `fn` (the source of a JavaScript function of one argument) in the page; its result, awaited. */
  evaluate<T>(fn: string, arg?: unknown): Promise<T>;
  /** A real click on the element (scrolled into view), as a user makes it. */
  click(css: string): Promise<boolean>;
  /** Empties the field and types `text` into it, key by key. */
  type(css: string, text: string): Promise<boolean>;
  /** Chooses the <option> of a <select> whose value is `value`. */
  select(css: string, value: string): Promise<boolean>;
  /** Presses a key on whatever has the focus: "Tab", "Enter", "Escape", or a chord as "Shift+Tab". */
  press(key: KeyName | `${'Shift' | 'Control'}+${KeyName}`): Promise<void>;
  /** Types `text` key by key into whatever has the focus. */
  typeKeys(text: string): Promise<void>;
  /** Sets the files of an <input type=file> from paths on this machine, as the file dialog would. */
  upload(css: string, paths: string[]): Promise<boolean>;
  /**
   * The page's uncaught errors and unhandled rejections (and in Firefox its console errors) since the
   * last call. Firefox reports every one; WebKitWebDriver has no log, so there they are collected in the
   * page by in-page.js, from the first time page.ts looked for something after each load.
   */
  errors(): Promise<string[]>;
  screenshot(path: string): Promise<void>;
  close(): Promise<void>;
}

type KeyName = 'Tab' | 'Enter' | 'Escape' | 'End';
