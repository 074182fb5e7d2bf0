import { expect, it } from 'vitest';
import { nextTask } from './next-task';

it('resolves in a later task: after a timer queued before it, not in the microtasks of this one', async () => {
  const order: string[] = [];
  setTimeout(() => order.push('timer queued before'));
  const waited = nextTask().then(() => order.push('after nextTask'));
  await Promise.resolve();
  order.push('microtask');
  await waited;
  expect(order).toEqual(['microtask', 'timer queued before', 'after nextTask']);
});
