/**
 * The engine's input checks (zod, at the contract's edge) answer in its own terms: a default
 * message such as "Too big: expected string to have <=2000 characters" and the field's name in
 * brackets, "(question)". The user reads neither: this keeps the sentence, in words.
 */
export function plainMessage(message: string): string {
  const text = message.replace(/\s*\([A-Za-z_][\w.]*\)$/, '');
  const tooLong = /^Too big: expected (?:string|array) to have <=\s*(\d+) (characters?|items?)$/.exec(text);
  if (tooLong) return `It is too long: at most ${tooLong[1]} ${tooLong[2]!.startsWith('char') ? 'characters' : 'items'}.`;
  const tooShort = /^Too small: expected (?:string|array) to have >=\s*(\d+) (characters?|items?)$/.exec(text);
  if (tooShort) return tooShort[1] === '1' ? 'It is empty.' : `It is too short: at least ${tooShort[1]} ${tooShort[2]!.startsWith('char') ? 'characters' : 'items'}.`;
  return text;
}

/** Characters a question may have: the engine's limit on `chat.ask` (tests/renderer checks they agree). */
export const MAX_QUESTION_CHARS = 2000;
