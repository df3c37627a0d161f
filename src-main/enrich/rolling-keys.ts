/**
 * MDKeyChunker's rolling key dictionary: the keys used so far in a document, most recently used
 * first, with use counts, capped by least-recently-used eviction (40 entries by default). Shown to
 * the LLM so later chunks reuse keys instead of inventing synonyms; reset per document.
 */
export class RollingKeys {
  /** Insertion order = recency order (oldest first); `Map` keeps it on delete + set. */
  private readonly uses = new Map<string, number>();

  /** `capacity`: maximum number of keys kept, an integer >= 1. */
  constructor(readonly capacity = 40) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be an integer >= 1');
  }

  /** Records one use of `key` (most recent now); evicts the least recently used key when full. */
  use(key: string): void {
    const n = this.uses.get(key) ?? 0;
    this.uses.delete(key);
    this.uses.set(key, n + 1);
    while (this.uses.size > this.capacity) {
      const oldest = this.uses.keys().next().value as string;
      this.uses.delete(oldest);
    }
  }

  has(key: string): boolean {
    return this.uses.has(key);
  }

  get size(): number {
    return this.uses.size;
  }

  /** Keys with their use counts, most recently used first. */
  entries(): { key: string; uses: number }[] {
    return [...this.uses].reverse().map(([key, uses]) => ({ key, uses }));
  }

  /** Forgets every key (called at the start of each document). */
  reset(): void {
    this.uses.clear();
  }
}
