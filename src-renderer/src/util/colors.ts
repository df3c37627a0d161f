/**
 * Stable colours for signature values (models, categories) in the chunk inspector: the same value
 * always gets the same hue, so a model reads as one colour across documents. Lightness and chroma
 * are fixed so text on top stays legible in both themes.
 */
const HUES = [212, 28, 142, 330, 265, 52, 190, 0, 100, 290, 160, 240];

function hash(value: string): number {
  let h = 2166136261;
  for (let i = 0; i < value.length; i++) {
    h ^= value.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** Background colour for a signature value; null (no model/category) is neutral grey. */
export function signatureColor(value: string | null): string {
  if (value === null) return 'oklch(0.86 0 0)';
  return `oklch(0.8 0.11 ${HUES[hash(value) % HUES.length]})`;
}
