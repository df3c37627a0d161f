/**
 * A table row as an answer quotes it: read with its header, a datasheet's unit column written
 * after the values it measures (see `rowText`). Split from sentences.ts, which cuts passages into
 * the units an answer quotes and calls this for each table row.
 */

/** A table's column of units ("Unit", "Units", "Unit(s)"). */
const UNIT_HEADER = /^units?(?:\(s\))?\.?$/i;
/** A unit as a cell writes it: short, no digits, no spaces ("V", "mA", "%/°C", "µs"), not "Indoor unit" or "4". */
const UNIT_CELL = /^[^\d\s|;]{1,10}$/u;
/** A column of a datasheet's values ("Min.", "Typ", "Max.", "Value", "Rating", "Nominal", "Limits"). */
const VALUE_HEADER = /^(?:min|typ|max|nom|value|rating|limit)/i;
/** A cell holding only a number, signed or with ± ("5.2", "-40", "±4"), or numbers for two modes ("2.1/1.62"). */
const BARE_NUMBER = /^[-+±]?\d+(?:[.,]\d+)?(?:\s?\/\s?[-+±]?\d+(?:[.,]\d+)?)*$/;

/**
 * A datasheet row with its "Unit" column's unit after each number of its value columns: "Max.:
 * 5.2 V", not "Max.: 5.2; Unit: V", so the line states a value. A value column takes the nearest
 * unit column after it (else before it); the first column is a row's label, never its unit; a
 * row whose unit cell is no unit ("Indoor unit", a count) is left as it is.
 */
function withUnits(row: string[], header: readonly string[]): string[] {
  const unitCols = header.map((h, i) => (i > 0 && UNIT_HEADER.test(h.trim()) ? i : -1)).filter((i) => i > 0);
  if (unitCols.length === 0) return row;
  const unitFor = (i: number): number | undefined => unitCols.find((u) => u > i) ?? [...unitCols].reverse().find((u) => u < i);
  const used = new Set<number>();
  const out = row.map((c, i) => {
    const u = VALUE_HEADER.test(header[i]?.trim() ?? '') && BARE_NUMBER.test(c) ? unitFor(i) : undefined;
    const unit = u === undefined ? '' : (row[u] ?? '').trim();
    if (!UNIT_CELL.test(unit)) return c;
    used.add(u!);
    return `${c} ${unit}`;
  });
  return out.map((c, i) => (used.has(i) ? '' : c));
}

/** "Label: value", the label's own trailing colon dropped (a header cell "Note：" read "Note：: /"). */
function labelled(label: string, value: string): string {
  const name = label.replace(/\s*[:：]\s*$/u, '');
  return name ? `${name}: ${value}` : value;
}

/**
 * A table row read with its header: "Power: 5V/3A" for a two-column label/value row,
 * "H1: a; H2: b" otherwise (a numbered row, "PIN: 2; PIN definition: GPIOAO-11", keeps its header);
 * a "Unit" column's unit goes after each number of its row. Adjacent columns after the first
 * that hold the same value (a cell that spanned them) are read once under all their headers:
 * "ROCK 5B, ROCK 5B+: 5V", not the value twice. Not columns apart, nor columns of one header
 * name: side-by-side groups of one table ("No. | Description | Qty | No. | Description | Qty")
 * give each item its own quantity.
 */
export function rowText(row: string[], header: string[] | null): string {
  if (header) row = withUnits(row, header);
  const filled = row.map((c, i) => ({ c, h: header?.[i] ?? '', i })).filter((x) => x.c !== '');
  if (filled.length === 0) return '';
  if (row.length === 2 && row[0] && row[1] && (!header || /\p{L}/u.test(row[0]))) return labelled(row[0], row[1]);
  if (!header) return filled.map((x) => x.c).join(' · ');
  // `last`: the column a read value ends at; only the next column can join it.
  const read: { c: string; heads: string[]; first: number; last: number }[] = [];
  for (const x of filled) {
    const prev = read[read.length - 1];
    if (prev && prev.first > 0 && x.h && prev.heads.length > 0 && prev.last === x.i - 1 && prev.c === x.c && !prev.heads.includes(x.h)) {
      prev.heads.push(x.h);
      prev.last = x.i;
    } else read.push({ c: x.c, heads: x.h ? [x.h] : [], first: x.i, last: x.i });
  }
  return read.map((r) => (r.heads.length > 0 ? labelled(r.heads.join(', '), r.c) : r.c)).join('; ');
}

