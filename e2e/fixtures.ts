import { test as base, expect } from '@playwright/test';

// Shared fixtures: the sandbox is reset before every test (an automatic fixture), and its demo keys
// and control API are at hand.
export const SANDBOX_ORIGIN = 'http://127.0.0.1:4110';
export const SANDBOX_BASE_URL = `${SANDBOX_ORIGIN}/v1`;

interface Fixtures {
  resetSandbox: void;
  demoKeys: Record<string, string>;
}

export const test = base.extend<Fixtures>({
  resetSandbox: [
    async ({ request }, use) => {
      const res = await request.post(`${SANDBOX_ORIGIN}/__sandbox/reset`);
      expect(res.ok()).toBe(true);
      await use();
    },
    { auto: true },
  ],
  demoKeys: async ({ request }, use) => {
    const res = await request.get(`${SANDBOX_ORIGIN}/__sandbox/keys`);
    const list = (await res.json()) as Array<{ name: string; key: string }>;
    await use(Object.fromEntries(list.map((k) => [k.name, k.key])));
  },
});

export { expect };
