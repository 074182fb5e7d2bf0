import { describe, expect, it } from 'vitest';
import { HistoryOrder } from './history-order';
import type { HistoryEntry } from './history-types';

const entry = (taskId: string, createdAt: number): HistoryEntry => ({ taskId, createdAt }) as HistoryEntry;

describe('HistoryOrder', () => {
  it('lists newest first and hands out the same array until something changes', () => {
    const entries = new Map([
      ['a', entry('a', 1)],
      ['b', entry('b', 2)],
    ]);
    const order = new HistoryOrder(entries, new Map());
    const first = order.list();
    expect(first.map((e) => e.taskId)).toEqual(['b', 'a']);
    expect(order.list()).toBe(first);
    order.reset();
    expect(order.list()).not.toBe(first);
  });

  it('puts a changed entry with the same time in its predecessor’s place, in a new array', () => {
    const a = entry('a', 1);
    const entries = new Map([
      ['a', a],
      ['b', entry('b', 2)],
    ]);
    const order = new HistoryOrder(entries, new Map());
    const before = order.list();
    const next = { ...a, status: 'succeeded' } as HistoryEntry;
    entries.set('a', next);
    order.replace(a, next);
    expect(order.list()).not.toBe(before);
    expect(order.list()[1]).toBe(next);
  });

  it('sorts again when a changed entry moved in time', () => {
    const a = entry('a', 1);
    const entries = new Map([
      ['a', a],
      ['b', entry('b', 2)],
    ]);
    const order = new HistoryOrder(entries, new Map());
    order.list();
    const moved = entry('a', 3);
    entries.set('a', moved);
    order.replace(a, moved);
    expect(order.list().map((e) => e.taskId)).toEqual(['a', 'b']);
  });

  it('merges the team’s tasks this history lacks, keeping the local list apart', () => {
    const entries = new Map([['a', entry('a', 1)]]);
    const team = new Map([
      ['a', entry('a', 1)],
      ['t', entry('t', 5)],
    ]);
    const order = new HistoryOrder(entries, team);
    expect(order.list().map((e) => e.taskId)).toEqual(['t', 'a']);
    expect(order.localList().map((e) => e.taskId)).toEqual(['a']);
  });
});
