// The observable-store primitive every client-side store shares: a set of listeners with a stable
// `subscribe` (React's useSyncExternalStore re-subscribes when it changes identity) and `notify`.
// It lives in lib/ because stores sit in model/, api/ and app/, and lib/ is the one folder all of them
// may import. A store keeps its own snapshot (many build it lazily); ValueStore is the whole store for
// the ones that only hold an immutable value.

/**
 * The listeners of one store. Notifying walks the live set: a listener removed while others are being
 * told (a component unmounting in the middle) is not called afterwards.
 */
export class Listeners<A extends unknown[] = []> {
  readonly #listeners = new Set<(...args: A) => void>();

  /** Adds a listener; the function returned removes it. Stable, so it can go straight to React. */
  readonly subscribe = (listener: (...args: A) => void): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  notify(...args: A): void {
    for (const listener of this.#listeners) listener(...args);
  }

  /** Drops every listener (the store is closed). */
  clear(): void {
    this.#listeners.clear();
  }

  get size(): number {
    return this.#listeners.size;
  }
}

/** A store that is one immutable value: its snapshot is the value itself, the same object until set. */
export class ValueStore<T> {
  #value: T;
  readonly #listeners = new Listeners();

  constructor(initial: T) {
    this.#value = initial;
  }

  readonly subscribe = this.#listeners.subscribe;

  readonly snapshot = (): T => this.#value;

  /** Replaces the value; listeners hear of it only when it is another value (Object.is). */
  set(next: T): void {
    if (Object.is(next, this.#value)) return;
    this.#value = next;
    this.#listeners.notify();
  }
}
