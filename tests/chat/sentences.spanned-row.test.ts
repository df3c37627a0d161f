import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../src-main/chat/sentences';

const rows = (text: string): string[] => splitSentences(text).filter((u) => u.kind === 'row').map((u) => u.text);

describe('a table row whose first cell a span left empty', () => {
  it('is read with the first cell of the row above', () => {
    const text = ['Table 4.3: Recommended Temperature Operating Range', '', '| Item |  | Min. | Max. | Unit |', '| --- | --- | --- | --- | --- |', '| Temperature | Main Die | -30 | 105 | °C |', '|  | Multi-Die SiP | -30 | 85 | °C |'].join('\n');
    expect(rows(text)[1]).toMatch(/^Item: Temperature; Multi-Die SiP; Min\.: -30 °C; Max\.: 85 °C$/);
  });

  it('is left as it is when it fills other cells than the row above (a converter splitting one row over several)', () => {
    const text = ['| Symbol | Parameter | Conditions | Min. | Typ. | Unit |', '| --- | --- | --- | --- | --- | --- |', '| IL(MIN) |  | VI - VO = 40 V |  | 3.5 | mA |', '|  |  |  | 1.5 | 2.2 | A |'].join('\n');
    expect(rows(text)[1]).not.toContain('IL(MIN)');
  });

  it('does not take a cell from another table', () => {
    const text = ['| A | B | C |', '| --- | --- | --- |', '| Temperature | x | 1 |', '', 'Between the tables.', '', '| A | B | C |', '| --- | --- | --- |', '|  | y | 2 |'].join('\n');
    expect(rows(text)[1]).not.toContain('Temperature');
  });
});
