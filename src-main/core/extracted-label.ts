/** First line of every extracted answer, so each surface (UI, CLI, export) shows what it is. */
export const EXTRACTED_LABEL = 'Extracted from the manuals (no language model was used):';

/**
 * An answer's text without the extracted label line, which follows any note ("Kept ROCK 5B from
 * the previous question ..."): for the UI, whose badge says it, and for a chat model's history.
 */
export function withoutExtractedLabel(text: string): string {
  const after = text.indexOf(`\n${EXTRACTED_LABEL}`);
  const at = text.startsWith(EXTRACTED_LABEL) ? 0 : after < 0 ? -1 : after + 1;
  return at < 0 ? text : text.slice(0, at) + text.slice(at + EXTRACTED_LABEL.length).replace(/^\n+/, '');
}
