// Debian's Chromium, as every browser run of the project starts it (Playwright tests, benchmarks,
// screenshots): this machine has no browser downloads, and without the background-networking flags
// Chromium's own calls to the closed network are refused many at a time.
export const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
