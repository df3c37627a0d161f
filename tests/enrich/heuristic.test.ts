import { describe, expect, it } from 'vitest';
import { createChunker } from '../../src-main/chunking/chunker';
import { leadingCaption } from '../../src-main/enrich/chunk-view';
import { createEnricher } from '../../src-main/enrich/enricher';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { markdownDocument } from './corpus.helper';
import { chunkAtHeadings } from './helpers';

/** A stitched manual: two sub-manuals for sibling models in one file. */
const STITCHED = [
  '# RAC-225B Service Manual',
  '',
  'The RAC-225B air conditioner is a wall-mounted split unit for rooms up to 25 m2.',
  '',
  '## Fuses',
  '',
  'The RAC-225B control board takes a 3.15 A slow-blow fuse. Replace the fuse only with the unit unplugged.',
  '',
  '### Fuse location',
  '',
  'The fuse sits behind the front panel, next to the terminal block of the control board.',
  '',
  '# RAC-228B Service Manual',
  '',
  'The RAC-228B air conditioner is the larger sibling for rooms up to 28 m2.',
  '',
  '## Fuses',
  '',
  'The RAC-228B control board takes a 5 A slow-blow fuse.',
].join('\n');

function setup(docs: { id: string; md: string }[]) {
  const normalized = docs.map((d) => markdownDocument(d.id, d.md));
  const vocabulary = ModelVocabulary.fromDocuments(normalized);
  const r = createEnricher('heuristic', { vocabulary });
  if (!r.ok) throw new Error(r.error.message);
  return { enricher: r.value, docs: normalized, vocabulary };
}

describe('heuristic enrichment (CNM + continuity + keys)', () => {
  it('inherits the previous signature across a continuous run and says why', async () => {
    const { enricher, docs } = setup([{ id: 'manuals/rac-series.md', md: STITCHED }]);
    const doc = docs[0]!;
    const { chunks } = await enricher.enrichDocument(doc, chunkAtHeadings(doc));
    expect(chunks.map((c) => c.headingPath[c.headingPath.length - 1])).toEqual([
      'RAC-225B Service Manual',
      'Fuses',
      'Fuse location',
      'RAC-228B Service Manual',
      'Fuses',
    ]);
    expect(chunks[0]!.continuity).toBeNull();
    expect(chunks[0]!.signatureSource).toBe('extracted');
    // "Fuse location" is a subsection of "Fuses": same flow, same signature object values.
    expect(chunks[2]!.continuity).toMatchObject({ continuous: true, reason: expect.stringContaining('subsection') });
    expect(chunks[2]!.signatureSource).toBe('inherited');
    expect(chunks[2]!.signature).toEqual(chunks[1]!.signature);
    for (const c of chunks) expect(c.continuity === null || c.continuity.reason.length > 0).toBe(true);
  });

  it('starts a new signature where the model changes', async () => {
    const { enricher, docs } = setup([{ id: 'manuals/rac-series.md', md: STITCHED }]);
    const doc = docs[0]!;
    const { chunks } = await enricher.enrichDocument(doc, chunkAtHeadings(doc));
    expect(chunks.slice(0, 3).map((c) => c.signature.model)).toEqual(['RAC-225B', 'RAC-225B', 'RAC-225B']);
    expect(chunks[3]!.continuity).toMatchObject({ continuous: false });
    expect(chunks[3]!.signatureSource).toBe('extracted');
    expect(chunks[3]!.signature.model).toBe('RAC-228B');
    expect(chunks[4]!.signature.model).toBe('RAC-228B');
    expect(chunks[0]!.signature.category).toBe('air conditioner');
  });

  it('treats a "Model:" line as a new-document marker', async () => {
    const md = '# Catalogue\n\n## Unit A\n\nModel: RAC-225B\n\nCooling 2.5 kW.\n\n## Unit B\n\nModel: RAC-228B\n\nCooling 2.8 kW.';
    const { enricher, docs } = setup([
      { id: 'manuals/rac-series.md', md: STITCHED },
      { id: 'manuals/catalogue.md', md },
    ]);
    const doc = docs[1]!;
    const { chunks } = await enricher.enrichDocument(doc, chunkAtHeadings(doc));
    const unitB = chunks.find((c) => c.text.includes('RAC-228B'))!;
    expect(unitB.continuity).toMatchObject({ continuous: false, reason: expect.stringContaining('Model:') });
    expect(unitB.signature.model).toBe('RAC-228B');
  });

  it('leaves category and model null when the text names neither', async () => {
    const { enricher, docs } = setup([{ id: 'notes/safety.md', md: '# General safety\n\nKeep the unit dry and unplug it before cleaning the filter.' }]);
    const doc = docs[0]!;
    const { chunks, stats } = await enricher.enrichDocument(doc, chunkAtHeadings(doc));
    expect(chunks[0]!.signature.category).toBeNull();
    expect(chunks[0]!.signature.model).toBeNull();
    expect(chunks[0]!.signature.nouns.length).toBeLessThanOrEqual(2);
    expect(stats).toEqual({ llmCalls: 0, promptTokens: 0, outputTokens: 0 });
  });

  it('fills keys from the heading path, keywords and entity patterns, and invents no summary', async () => {
    const md = '# E52C\n\n## Power supply\n\nThe Radxa E52C needs a fixed 5V/3A supply on the USB Type-C port; GPIO3_A4 drives the LED.';
    const { enricher, docs } = setup([{ id: 'lib/e/e52c/power.md', md }]);
    const doc = docs[0]!;
    const { chunks } = await enricher.enrichDocument(doc, chunkAtHeadings(doc));
    const power = chunks[1]!;
    expect(power.keys.title).toBe('Power supply');
    expect(power.keys.key).toBe('power-supply');
    expect(power.keys.summary).toBeNull();
    expect(power.keys.questions).toEqual([]);
    expect(power.keys.entities).toEqual(expect.arrayContaining(['E52C', '5V/3A', 'USB Type-C', 'GPIO3_A4']));
    expect(power.keys.keywords.length).toBeGreaterThan(0);
    expect(power.signature.model).toBe('E52C');
  });

  it('takes a caption line opening a chunk as the model of the table it labels (a tab label such as "CM4 IO Board")', async () => {
    const row = (name: string, text: string) => `| ${name} | ${text} |`;
    const table = (rows: string[]) => ['| Category | Specifications |', '| --- | --- |', ...rows].join('\n');
    const readme = [
      '# CM4',
      '',
      'The CM4 is a compute module. The CM4 IO Board carries it.',
      '',
      '## Product Specifications',
      '',
      table([row('Storage', 'Onboard eMMC, up to 128GB; SDMMC interface for data storage or OS boot'), row('Memory', 'LPDDR4X, up to 16GB, 64-bit bus')]),
      '',
      'CM4 IO Board',
      '',
      table([row('Storage', 'Supports onboard eMMC, microSD card, UFS module and M.2 M Key NVMe SSD'), row('Power', '12V DC jack, 5V over USB Type-C')]),
    ].join('\n');
    const { enricher, docs } = setup([
      { id: 'lib/cm/cm4/README.md', md: readme },
      { id: 'lib/cm/cm4/power.md', md: '# Power\n\nThe CM4 IO takes 12V. The CM4 IO board has a fan header.' },
    ]);
    const doc = docs[0]!;
    const chunker = createChunker('structure', { minChars: 20, maxChars: 200 });
    if (!chunker.ok) throw new Error(chunker.error.message);
    const chunked = await chunker.value.chunk(doc);
    if (!chunked.ok) throw new Error(chunked.error.message);
    const { chunks } = await enricher.enrichDocument(doc, chunked.value);
    const model = (needle: string) => chunks.find((c) => c.text.includes(needle))?.signature.model;
    expect(model('up to 128GB')).toBe('CM4');
    expect(model('UFS module')).toBe('CM4 IO');
    expect(leadingCaption('CM4 IO Board\n\n| a | b |')).toBe('CM4 IO Board');
    // HTML→Markdown bolds captions; the markers are not part of the name.
    expect(leadingCaption('**CM4 IO Board**\n\n| a | b |')).toBe('CM4 IO Board');
    expect(leadingCaption('__CM4 IO Board__\n\n| a | b |')).toBe('CM4 IO Board');
    const notCaptions = [
      'The board works.\n\nMore.',
      '- a list item\n\nMore.',
      '## A heading\n\nMore.',
      'CM4 IO Board\nruns on into a paragraph',
      'Note:\n\nMore.',
      '[ROCK 5B](./rock5b.md)\n\nMore.',
      'See the [ROCK 5B](./rock5b.md)\n\nMore.',
      '![CM5 IO](/img/cm5-io.webp)\n\nMore.',
      ':::tip\n\nMore.',
      ':::tip CM5 IO\n\nMore.',
      '**Note:**\n\nMore.',
      '**CM4** and **CM5**\n\nMore.',
    ];
    for (const text of notCaptions) expect(leadingCaption(text), text).toBeNull();
  });
});
