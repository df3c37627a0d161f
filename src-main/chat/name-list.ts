/**
 * Names as a reply lists them in a sentence: "A", "A and B", "A, B and C" (`last` "or" for a
 * choice: "A, B or C").
 */
export function listNames(names: readonly string[], last = 'and'): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} ${last} ${names[names.length - 1]}`;
}
