/**
 * Names as a reply says them, shared by the engine's replies and the renderer's header lines, so
 * both list and count a question's names alike.
 */

/**
 * Names as a reply lists them in a sentence: "A", "A and B", "A, B and C" (`last` "or" for a
 * choice: "A, B or C").
 */
export function listNames(names: readonly string[], last = 'and'): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} ${last} ${names[names.length - 1]}`;
}

/**
 * `items` with each name once, whatever its case ("foo x2 lite ... Foo X2 Lite"): the first item
 * writing it kept, in order. `textOf` gives an item's name.
 */
export function onceEach<T>(items: readonly T[], textOf: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = textOf(item).toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `names` but those `others` write, whatever their case: the names no manual is for but those a question back asked about already. */
export function namesBesides(names: readonly string[], others: readonly string[]): string[] {
  const said = new Set(others.map((o) => o.toLowerCase()));
  return names.filter((name) => !said.has(name.toLowerCase()));
}
