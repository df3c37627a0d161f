/**
 * `fn` remembered for the last texts it was called with: the enrichment asks the same question of
 * the same heading or title for every chunk of a section. Bounded by `size` entries; when full the
 * memory is dropped wholesale (simpler than LRU, and the texts of one section come together).
 * `fn` must be pure, and callers must not modify what it returns.
 */
export function boundedMemo<T>(size: number, fn: (text: string) => T): (text: string) => T {
  const memory = new Map<string, T>();
  return (text) => {
    let value = memory.get(text);
    if (value === undefined) {
      value = fn(text);
      if (memory.size >= size) memory.clear();
      memory.set(text, value);
    }
    return value;
  };
}
