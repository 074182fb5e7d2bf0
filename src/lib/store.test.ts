import { describe, expect, it, vi } from 'vitest';
import { Listeners, ValueStore } from './store';

describe('Listeners', () => {
  it('tells every subscribed listener, with the arguments given', () => {
    const listeners = new Listeners<[string]>();
    const a = vi.fn();
    const b = vi.fn();
    listeners.subscribe(a);
    listeners.subscribe(b);
    listeners.notify('x');
    expect(a).toHaveBeenCalledWith('x');
    expect(b).toHaveBeenCalledWith('x');
  });

  it('stops telling a listener once it unsubscribes', () => {
    const listeners = new Listeners();
    const a = vi.fn();
    const off = listeners.subscribe(a);
    listeners.notify();
    off();
    listeners.notify();
    expect(a).toHaveBeenCalledTimes(1);
    expect(listeners.size).toBe(0);
  });

  it('counts a listener subscribed twice once, as a Set does', () => {
    const listeners = new Listeners();
    const a = vi.fn();
    listeners.subscribe(a);
    listeners.subscribe(a);
    listeners.notify();
    expect(a).toHaveBeenCalledTimes(1);
  });

  it('goes on to the others when a listener unsubscribes itself during notify', () => {
    const listeners = new Listeners();
    const calls: string[] = [];
    const off = listeners.subscribe(() => {
      calls.push('first');
      off();
    });
    listeners.subscribe(() => calls.push('second'));
    listeners.notify();
    listeners.notify();
    expect(calls).toEqual(['first', 'second', 'second']);
  });

  it('does not call a listener another one removed during the same notify', () => {
    const listeners = new Listeners();
    const late = vi.fn();
    let offLate = (): void => {};
    listeners.subscribe(() => offLate());
    offLate = listeners.subscribe(late);
    listeners.notify();
    expect(late).not.toHaveBeenCalled();
  });

  it('keeps subscribe the same function, so React does not re-subscribe on every render', () => {
    const listeners = new Listeners();
    expect(listeners.subscribe).toBe(listeners.subscribe);
  });

  it('clear drops every listener', () => {
    const listeners = new Listeners();
    const a = vi.fn();
    listeners.subscribe(a);
    listeners.clear();
    listeners.notify();
    expect(a).not.toHaveBeenCalled();
  });
});

describe('ValueStore', () => {
  it('hands out the same snapshot until the value is set', () => {
    const store = new ValueStore<readonly number[]>([1]);
    const first = store.snapshot();
    expect(store.snapshot()).toBe(first);
    const next = [1, 2];
    store.set(next);
    expect(store.snapshot()).toBe(next);
    expect(store.snapshot()).not.toBe(first);
  });

  it('notifies on a new value and stays quiet when the same value is set again', () => {
    const store = new ValueStore({ n: 1 });
    const listener = vi.fn();
    store.subscribe(listener);
    const same = store.snapshot();
    store.set(same);
    expect(listener).not.toHaveBeenCalled();
    store.set({ n: 1 });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('works with useSyncExternalStore: subscribe and snapshot are stable functions', () => {
    const store = new ValueStore(0);
    const { subscribe, snapshot } = store;
    const listener = vi.fn();
    const off = subscribe(listener);
    store.set(1);
    expect(snapshot()).toBe(1);
    off();
    store.set(2);
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
