import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentCodes } from '../../src-main/enrich/document-codes';
import { DocumentEvidence, documentNames } from '../../src-main/search/document-evidence';
import { useTempEngine } from '../helpers/temp-engine';

const doc = (text: string, metadata: Record<string, string> = {}, partNumbers: string[] = []) => ({ text, metadata, facts: { runningText: [], partNumbers } });

describe('documentCodes', () => {
  it('reads labelled SKUs, part and order numbers near the top, from front matter and from PDF running headers', () => {
    expect(documentCodes(doc('# Timer Cam\n\n<span>SKU:U082</span>\n\nA camera.'))).toEqual(['U082']);
    expect(documentCodes(doc('Ordering code: AB-1234-X. Part No. 990-0123; P/N QX7.'))).toEqual(['AB-1234-X', '990-0123', 'QX7']);
    expect(documentCodes(doc('Intro', { sku: 'ABX00083', title: 'Nano Matter' }))).toEqual(['ABX00083']);
    expect(documentCodes(doc('Intro', {}, ['NTD4809N']))).toEqual(['NTD4809N']);
  });

  it('keeps no word without a digit, no duplicate and nothing far below the top', () => {
    expect(documentCodes(doc('SKU: none yet. Item code: TBD. SKU:U082 and sku: u082.'))).toEqual(['U082']);
    expect(documentCodes(doc(`${'Body text. '.repeat(700)}SKU: K999`))).toEqual([]);
  });
});

describe('ordering codes as document names', () => {
  it('names a document by its code, and by the run-together form of a name with a word in the middle', () => {
    const docs = [
      { id: 'kit/unit/timercam.md', title: 'Timer Camera', codes: ['U082'] },
      { id: 'kit/unit/thermal.md', title: 'Thermal', codes: ['U036'] },
      { id: 'kit/mkr/mkr-wifi-1010.md', title: 'MKR WiFi 1010' },
      { id: 'kit/mkr/mkr-zero.md', title: 'MKR Zero' },
    ];
    expect(documentNames(docs[0]!)).toContain('U082');
    const evidence = DocumentEvidence.build(docs);
    expect([...evidence.score('U082 field of view').keys()]).toEqual(['kit/unit/timercam.md']);
    expect(evidence.score('MKR1010 pinout').get('kit/mkr/mkr-wifi-1010.md')).toBe(1);
    expect(evidence.score('MKR1010 pinout').has('kit/mkr/mkr-zero.md')).toBe(false);
  });
});

describe('ordering codes in a real library', () => {
  const t = useTempEngine();

  it("answers from the manual a question names only by its SKU, not from the page that prints the code", async () => {
    const { engine, dir } = t;
    const root = path.join(dir, 'kit', 'unit');
    await mkdir(root, { recursive: true });
    // The code is printed once at the top; the answer is in a later section whose words the
    // sibling's page shares, so only the document's name can tell the two answers apart.
    const page = (title: string, sku: string, fov: string) =>
      `# ${title}\n\n<span>SKU:${sku}</span> This unit ships in a box with a cable, a mounting plate, two screws and a quick start card.\n\n` +
      `## Optics\n\nThe lens of the camera has a field of view of ${fov}; focus is fixed from 20 cm to infinity at every aperture.\n`;
    await writeFile(path.join(root, 'lens_a.md'), page('Lens Camera', 'U082', '66.5 degrees'));
    await writeFile(path.join(root, 'lens_b.md'), page('Lens Camera Wide', 'U083', '120 degrees'));
    const imported = await engine.importPaths('Kit', [path.join(dir, 'kit')]);
    expect(imported.ok).toBe(true);
    for (const [code, fov] of [['U083', '120 degrees'], ['U082', '66.5 degrees']]) {
      const res = await engine.api['search.query']({ library: 'Kit', query: `${code} field of view of the camera lens`, topK: 3, retriever: 'bm25' });
      expect(res.ok).toBe(true);
      if (!res.ok) return;
      expect(res.value.results[0]!.text, code).toContain(fov);
    }
  });
});
