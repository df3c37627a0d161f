import { describe, expect, it } from 'vitest';
import { componentText, markdownParser } from '../../../src-main/ingest/parsers/markdown.parser';

const PARTIAL = `export default function DynamicList({ items }) {
  const fixedItems = ['Anti-static bag', "PP plastic case"];
  return (
    <div>
      {items.map((modelName) => (
        <h3 key={modelName}>Standard package for {modelName} includes:</h3>
      ))}
      <li>{item}</li>
    </div>
  );
}
`;

describe('MDX pages that are only an exported component', () => {
  it('keeps the visible strings and JSX text, not the code', () => {
    expect(componentText(PARTIAL)).toEqual(['Anti-static bag', 'PP plastic case', 'Standard package for modelName includes:']);
  });

  it('imports such a page as a list instead of failing it as empty', async () => {
    const res = await markdownParser.parse({ bytes: new TextEncoder().encode(PARTIAL), fileName: '_package.mdx' });
    expect(res.ok).toBe(true);
    if (res.ok) {
      expect(res.doc.text).toContain('- Anti-static bag');
      expect(res.doc.blocks.map((b) => b.kind)).toEqual(['list']);
    }
  });

  it('still fails a page with no visible text at all', async () => {
    const res = await markdownParser.parse({ bytes: new TextEncoder().encode('export const x = 1;\n'), fileName: 'empty.mdx' });
    expect(res).toMatchObject({ ok: false });
  });
});
