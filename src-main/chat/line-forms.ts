import { STEP_LINE } from './question-kind';
import type { Sentence } from './sentences';

/**
 * Forms of a quoted line the extractive answer reads (`extractive.answerer.ts`): its label, the
 * setting a line of code sets, and whether it gives an instruction.
 */

/** The label of a "Label: value" line (a row read with its header, a spec item), or null. */
export function labelOf(text: string): string | null {
  // ": " or a full-width "：" (manuals written in CJK locales use it with no space).
  const m = /^(.{1,60}?)(?:: |：\s*)\S/u.exec(text);
  if (!m) return null;
  const label = m[1]!.replace(/[*_]/g, '').trim();
  return label !== '' && label.split(/\s+/).length <= 6 ? label : null;
}

/**
 * The key of a configuration line in code, a key set to one literal value ("board = kb-40-mini",
 * "upload_speed: 921600", "CONFIG_SPIRAM=y"), or null: the setting a question about it names ("the
 * toolkit's board name"). A statement ("value = read_sensor(A0);") sets no setting.
 */
export function settingKey(sentence: Sentence): string | null {
  if (sentence.kind !== 'code') return null;
  const m = /^`?\s*([A-Za-z_][\w.-]{0,40}?)\s*[=:]\s*(?:"[^"]*"|[^\s=:();"`]+)\s*`?$/.exec(sentence.text);
  return m ? m[1]! : null;
}

/**
 * Whether a line gives an instruction (`STEP_LINE`). A "Label: description" line whose label opens
 * with a step verb ("Install from device storage: Install a new certificate from storage.", "Use
 * Wi-Fi Direct: ...") names a menu option and says what it does; it instructs no more than the
 * option list it belongs to, and led "how can I see what certificates are installed?" with that
 * option. No count of the answer bench moved (galaxy-s10 s10-561 now opens with "View security
 * certificates: Display certificates ...", its gold is still the line after).
 */
export function isInstruction(sentence: Sentence): boolean {
  if (!STEP_LINE.test(sentence.text)) return false;
  const label = sentence.label ?? labelOf(sentence.text);
  return !(label && STEP_LINE.test(label));
}
