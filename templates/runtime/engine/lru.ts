/**
 * A bounded map that forgets the least recently used entry first: caches keyed by request
 * shapes, which clients choose, must not grow without bound.
 */
export class LruCache<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly capacity: number) {}

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** The value, now the most recently used; undefined when absent (or stored as undefined). */
  get(key: K): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key) as V;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value as K);
  }

  get size(): number {
    return this.#entries.size;
  }
}
