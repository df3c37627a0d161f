import type { Citation, SearchHit } from '../contract/api';
import { escapeRe } from '../core/text';
import type { Passage } from './passages';
import { citationFor, quotePages } from './passages';
import type { Sentence } from './sentences';

/**
 * How the extractive answer's quoted lines are laid out: under the model they belong to, each with
 * the source of its passage and model. A line of another product's manual is never shown under
 * the name of the model asked about: it goes apart, under its own model's name or its document's.
 */

/** One quoted line: the unit, its passage and the model it belongs to. */
export interface Line {
  passage: number;
  sentence: Sentence;
  model: string | null;
  /** Indented under a lead sentence. */
  sub: boolean;
  /** Sentences quoted on the same line before it: the rest of its paragraph. */
  before: Sentence[];
  /**
   * Sentences quoted on the same line after it: the rest of its paragraph, or for a line that
   * only restates the question the unit after it.
   */
  after: Sentence[];
  /** A label heading the list quoted under it: shown without a source of its own (its items carry it). */
  heads?: boolean;
  /** For an item or row a lead sentence brought: that lead's line. */
  lead?: Line;
}

export interface LayoutOptions {
  /** The library model a text names, if exactly one (see `ExtractiveOptions.modelIn`). */
  modelIn?: (text: string) => string | null;
  /** The question names a model (or the scope fixes one). */
  modelNamed?: boolean;
  /** The models the answer is about. */
  models?: readonly string[];
  /** Whether `model` is one of `asked` or of their family (default: the same name). */
  sameModel?: (asked: readonly string[], model: string) => boolean;
  /**
   * Whether `model` is one of `asked` itself or a revision of one (default: the same name): a
   * family member that is not ("Galaxy S10" for "Galaxy S10 Lite") is other hardware, whose lines
   * are shown under its own name.
   */
  exactModel?: (asked: readonly string[], model: string) => boolean;
  /** The question as the answer reads it, to tell a page it names from one it does not. */
  question?: string;
  /** Whether `text` names one of `asked` or a revision of one, among any others ("The ROCK 5B/5B+ supports ..."). */
  namesAsked?: (asked: readonly string[], text: string) => boolean;
  /** Whether a hit's file name, title or section path names one of `asked` (default: `modelIn` reads each). */
  namedWhere?: (asked: readonly string[], hit: SearchHit) => boolean;
  /** Documents that list an asked model among the models they are for (see `docsListing`, covered-models.ts). */
  listing?: ReadonlySet<string>;
  /** Whether `text` names a library model that is not one of `asked` nor a revision of one (default: never). */
  namesOther?: (asked: readonly string[], text: string) => boolean;
}

/** Whether `text` holds `name` as whole words, case and spacing aside ("the Tough screen" holds "TOUGH"). */
function namesWhole(text: string, name: string): boolean {
  const words = name.trim().split(/[\s_]+/).filter(Boolean).map(escapeRe);
  return words.length > 0 && new RegExp(`(?<![\\p{L}\\p{N}])${words.join('[\\s_-]+')}(?![\\p{L}\\p{N}])`, 'iu').test(text);
}

function listNames(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** A document's file name without folder and extension, "_" read as a space (as `isSiblings` reads it). */
function fileNameOf(doc: string): string {
  return (doc.split('/').pop() ?? '').replace(/\.[^.]+$/, '').replace(/_+/g, ' ');
}

/**
 * Whether a line belongs to the `asked` models: its model is one of them (or of their family);
 * or its model is its chunk's own (or none) and its document's file name, title or section path
 * names one of them (an enrichment that read a maker's name as the model is overruled by the
 * document, as in retrieval's sibling gate); or it has no model and another quoted passage of its
 * document is the asked model's, when the question named them: a model only inferred from the
 * quoted lines does not take a document's other passages (a sensor page with no model of its own
 * whose driver note names the M5StickC is not the M5StickC's page).
 */
function ownership(asked: readonly string[], used: readonly Passage[], options: LayoutOptions): (l: Line) => boolean {
  const same = (m: string | null): boolean => m !== null && (options.sameModel ? options.sameModel(asked, m) : asked.includes(m));
  // By passage: its section path and chunk model count too, not its document alone.
  const passageNamed = new Map<Passage, boolean>();
  const namedByDoc = (p: Passage): boolean => {
    let v = passageNamed.get(p);
    if (v === undefined) {
      v = options.namedWhere ? options.namedWhere(asked, p.hit) : [fileNameOf(p.hit.doc), p.hit.title, ...p.hit.headingPath].some((t) => same(options.modelIn?.(t) ?? null));
      passageNamed.set(p, v);
    }
    return v;
  };
  const ownDocs = new Set(used.filter((p) => same(p.hit.signature.model)).map((p) => p.hit.doc));
  const named = options.modelNamed === true && (options.models?.length ?? 0) > 0;
  return (l) => {
    if (same(l.model)) return true;
    const p = used[l.passage]!;
    if ((l.model === null || l.model === p.hit.signature.model) && namedByDoc(p)) return true;
    return l.model === null && named && ownDocs.has(p.hit.doc);
  };
}

/**
 * Whether a line counted as the asked models' (`ownership`) is only their family's: its model is a
 * member or the parent of one of them, not one of them or a revision, and neither its document's
 * file name, folders and title nor its section path names one of them exactly, nor does the line
 * itself ("Galaxy_S10.md" asked about the Galaxy S10 Lite: its wireless charging is not the Lite's).
 */
function relatedOnly(asked: readonly string[], used: readonly Passage[], options: LayoutOptions): (l: Line) => boolean {
  const exact = (m: string | null): boolean => m !== null && (options.exactModel ? options.exactModel(asked, m) : asked.includes(m));
  const docExact = new Map<number, boolean>();
  const namedExactly = (pi: number): boolean => {
    let v = docExact.get(pi);
    if (v === undefined) {
      const hit = used[pi]!.hit;
      const folders = hit.doc.split('/').slice(1, -1).map((f) => f.replace(/_+/g, ' '));
      v = [fileNameOf(hit.doc), ...folders, hit.title, ...hit.headingPath].some((t) => exact(options.modelIn?.(t) ?? null));
      docExact.set(pi, v);
    }
    return v;
  };
  const namesAsked = (l: Line): boolean => options.namesAsked?.(asked, [...l.before, l.sentence, ...l.after].map((u) => u.text).join(' ')) ?? false;
  // A manual that lists the asked model among the models it is for says its lines of each, but a
  // line that names another model ("The Galaxy S10+ has a 4100 mAh battery."), or stands under a
  // heading that does ("Galaxy S10+ only"), is that one's.
  const namesOther = (text: string): boolean => options.namesOther?.(asked, text) ?? false;
  const listed = (l: Line): boolean =>
    options.listing?.has(used[l.passage]!.hit.doc) === true &&
    !(l.sentence.heading && namesOther(l.sentence.heading)) &&
    !namesOther([...l.before, l.sentence, ...l.after].map((u) => u.text).join(' '));
  // An item or row a lead brought goes with its lead.
  const relatedLine = (l: Line): boolean => (l.lead ? relatedLine(l.lead) : l.model !== null && !exact(l.model) && !namedExactly(l.passage) && !namesAsked(l) && !listed(l));
  return relatedLine;
}

/**
 * The answer's lines laid out, with their citations numbered in order of first appearance. With
 * several models and none asked, each model's lines come under its name and the answer asks back.
 * Otherwise the lines of the model asked (or the one model quoted) come under "For X:", and any
 * line of another product's manual comes after them, apart, under its model's or document's name.
 */
export function layOut(lines: readonly Line[], used: readonly Passage[], options: LayoutOptions): { out: string[]; citations: Citation[] } {
  // One number per passage, model and page: a family page quoted for two models gets a source for
  // each, so the source beside a line names that line's model, not the chunk's; a passage quoted
  // on two pages gets one per page, so each source opens on its line's page.
  const numberOf = new Map<string, number>();
  const citations: Citation[] = [];
  const cite = (l: Line): number => {
    const quoted = [...l.before, l.sentence, ...l.after];
    const from = Math.min(...quoted.map((u) => u.offset));
    const evidence = { offset: from, length: Math.max(...quoted.map((u) => u.offset + u.length)) - from };
    const key = `${l.passage}\u0000${l.model ?? ''}\u0000${quotePages(used[l.passage]!, evidence).join(',')}`;
    let num = numberOf.get(key);
    if (num === undefined) {
      num = citations.length + 1;
      numberOf.set(key, num);
      citations.push({ ...citationFor(used[l.passage]!, num, evidence), model: l.model });
    }
    return num;
  };
  const render = (l: Line): string => `${l.sub ? '  ' : ''}- ${[...l.before, l.sentence, ...l.after].map((u) => u.text).join(' ')}${l.heads ? '' : ` [${cite(l)}]`}`;
  const out: string[] = [];
  const group = (header: string | null, mine: readonly Line[]): void => {
    if (mine.length === 0) return;
    if (header !== null) out.push(`${out.length > 0 ? '\n' : ''}${header}`);
    const labelled = new Set<Line>();
    for (const l of mine) {
      // A label heading its items goes above the first of them in each group: never alone, never apart.
      if (l.lead?.heads && !labelled.has(l.lead)) {
        labelled.add(l.lead);
        out.push(render(l.lead));
      }
      out.push(render(l));
    }
  };
  const quoted = lines.filter((l) => !l.heads);
  const models = [...new Set(quoted.map((l) => l.model).filter((m): m is string => m !== null))];
  if (models.length >= 2 && !options.modelNamed) {
    // Several models' values and none asked for: each under its model's name, then ask back. The
    // groups keep the order of their first lines, so the best passage's lead the answer even when
    // its page has no model ("Any model", as a product the vocabulary does not know has; m5stack
    // +1 first line, no other question on any set moved).
    for (const m of new Set(quoted.map((l) => l.model))) group(`${m ?? 'Any model'}:`, quoted.filter((l) => l.model === m));
    out.push('', `Which model: ${models.join(', ')}? Name it in the question or pick its chip to get only its values.`);
    return { out, citations };
  }
  // The models the user asked about (named, or fixed by the scope); else the one model of the
  // quoted lines, which heads its own lines but was not asked about.
  const named = options.modelNamed && options.models && options.models.length > 0;
  const asked = named ? options.models! : models.length === 1 ? models : [];
  if (asked.length === 0) {
    group(null, quoted);
    return { out, citations };
  }
  const own = ownership(asked, used, options);
  const related = relatedOnly(asked, used, options);
  // A passage of no model is named by its document: the top heading above its own section (the
  // document's title), else its file name. When every quoted section of a document that has such
  // a heading has the same one, it is the document's title and names the document's other
  // passages too ("CoreInk", not "coreink.md", for the title's own opening); a PDF's top
  // headings are its chapters, which name only their own passages.
  const tops = new Map<string, Set<string>>();
  for (const p of used) if (p.hit.headingPath.length >= 2) (tops.get(p.hit.doc) ?? tops.set(p.hit.doc, new Set()).get(p.hit.doc)!).add(p.hit.headingPath[0]!);
  const mine: Line[] = [];
  const apart = new Map<string, Line[]>();
  const putApart = (header: string, l: Line): void => void apart.set(header, [...(apart.get(header) ?? []), l]);
  for (const l of quoted) {
    if (own(l)) {
      // A related model's lines (a member's or the parent's manual) are its own, under its name.
      if (related(l)) putApart(`For ${l.model} (related to ${listNames(asked)}):`, l);
      else mine.push(l);
      continue;
    }
    const hit = used[l.passage]!.hit;
    const title = tops.get(hit.doc);
    // The title names a passage under no heading, or directly under that title.
    const only = title?.size === 1 ? [...title][0]! : null;
    const docName = hit.headingPath.length >= 2 ? hit.headingPath[0]! : only !== null && (hit.headingPath.length === 0 || hit.headingPath[0] === only) ? only : (hit.doc.split('/').pop() ?? hit.doc);
    // "Not found to be about" only a model the user asked about: a question naming none is not
    // about the one model its lines happen to quote.
    // A page the question itself names ("Compare the Core2 and the Tough screen" for "TOUGH", a
    // product the vocabulary does not know) is asked about too: it is not "not found to be about".
    const askedToo = options.question !== undefined && namesWhole(options.question, docName);
    putApart(l.model !== null ? `For ${l.model}, not ${listNames(asked)}:` : named && !askedToo ? `From "${docName}" (not found to be about ${listNames(asked)}):` : `From "${docName}":`, l);
  }
  // Groups keep the order of their best lines: a sub-heading read as another model may be the
  // asked model's after all ("ROCK 4A/B+" read as the ROCK 4A), so it keeps its rank. Asked for
  // a model, the pages of no model from other documents (another product's spec page) come
  // after its own lines.
  // Comparing models, each one's lines come under its own name once two of them have lines; a
  // line of no single one of them (a shared page, a family member) under all their names.
  const each = asked.map((m) => [`For ${m}:`, mine.filter((l) => l.model === m)] as const);
  const split = asked.length >= 2 && each.filter(([, ls]) => ls.length > 0).length >= 2;
  const askedGroups: (readonly [string, Line[]])[] = split ? [...each, [`For ${listNames(asked)}:`, mine.filter((l) => l.model === null || !asked.includes(l.model))]] : [[`For ${listNames(asked)}:`, mine]];
  const askedLines = new Set(askedGroups.map(([, ls]) => ls));
  const hasOwn = askedGroups.some(([, ls]) => ls.length > 0);
  const after = (ls: readonly Line[]): boolean => options.modelNamed === true && !askedLines.has(ls as Line[]) && (ls[0]!.model === null || (hasOwn && related(ls[0]!)));
  const rank = (ls: readonly Line[]): number => (after(ls) ? quoted.length : 0) + quoted.indexOf(ls[0]!);
  const groups = [...askedGroups, ...apart].filter(([, ls]) => ls.length > 0).sort((a, b) => rank(a[1]) - rank(b[1]));
  for (const [header, ls] of groups) group(header, ls);
  return { out, citations };
}
