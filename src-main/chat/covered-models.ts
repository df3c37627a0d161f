import { HEADING_ONE_LINE } from '../enrich/chunk-view';
import type { Passage } from './passages';
import type { ChatIndex } from './retrieve';

/**
 * Which manuals cover an asked model though written under another of its family's names. A
 * manual for several models often lists them first as headings with nothing between them ("###
 * Galaxy S10e", "### Galaxy S10", "### Galaxy S10+" atop the Galaxy S10's manual, where each
 * model's picture was): what it says elsewhere is said of each. Its lines are the asked model's,
 * not a related model's (see `relatedOnly` in extractive.render.ts). A manual that gives the asked
 * model a section with text of its own (a module's manual with a section on its carrier board)
 * is not such a list.
 */

/**
 * The runs of two or more headings of one level, one after the other with nothing between them,
 * each naming one library model (`modelIn`): the models of each run.
 */
export function listedModels(text: string, modelIn: (text: string) => string | null): string[][] {
  const runs: string[][] = [];
  let run: { level: number; models: string[] } | null = null;
  const close = (): void => {
    if (run && new Set(run.models).size >= 2) runs.push(run.models);
    run = null;
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const m = HEADING_ONE_LINE.exec(line);
    const model = m ? modelIn(m[2]!) : null;
    if (!m || !model) {
      close();
      continue;
    }
    const level = m[1]!.length;
    if (run && run.level === level) run.models.push(model);
    else {
      close();
      run = { level, models: [model] };
    }
  }
  close();
  return runs;
}

/**
 * The documents of `passages` whose chunk model is of the asked models' family but not one of them
 * (`related`), and whose text lists one of the asked models (`isAsked`) beside other models.
 */
export async function docsListing(
  index: Pick<ChatIndex, 'pagedText'>,
  passages: readonly Passage[],
  related: (model: string) => boolean,
  isAsked: (model: string) => boolean,
  modelIn: (text: string) => string | null,
): Promise<Set<string>> {
  const out = new Set<string>();
  if (!index.pagedText) return out;
  const docs = new Set(passages.filter((p) => p.hit.signature.model !== null && related(p.hit.signature.model)).map((p) => p.hit.doc));
  for (const doc of docs) {
    const paged = await index.pagedText(doc).catch(() => null);
    if (paged && listedModels(paged.text, modelIn).some((run) => run.some(isAsked))) out.add(doc);
  }
  return out;
}
