import { describe, expect, it } from 'vitest';
import { rowText } from '../../src-main/chat/table-rows';

describe('a table row read with its header', () => {
  it('reads each cell under its header, and a two-column row as label and value', () => {
    expect(rowText(['2', 'GPIOAO-11'], ['PIN', 'PIN definition'])).toBe('PIN: 2; PIN definition: GPIOAO-11');
    expect(rowText(['Power', '5V/3A'], ['Item', 'Value'])).toBe('Power: 5V/3A');
  });

  it('reads columns that hold the same value once, under all their headers', () => {
    // A "Power Supply" cell that spanned both models' columns.
    expect(rowText(['Power Supply', 'USB-C 5V', 'USB-C 5V'], ['Model', 'ROCK 5B', 'ROCK 5B+'])).toBe('Model: Power Supply; ROCK 5B, ROCK 5B+: USB-C 5V');
    expect(rowText(['Camera', '1 port', '1 port', '2 ports'], ['Model', 'A', 'B', 'C'])).toBe('Model: Camera; A, B: 1 port; C: 2 ports');
    // Only adjacent columns: the same value in columns apart is each column's own.
    expect(rowText(['Camera', '1 port', '2 ports', '1 port'], ['Model', 'A', 'B', 'C'])).toBe('Model: Camera; A: 1 port; B: 2 ports; C: 1 port');
    // Side-by-side groups under one header name keep each item's value.
    expect(rowText(['8', 'GPIO Header', '1', '17', 'Fan', '1'], ['No', 'Description', 'Qty', 'No', 'Description', 'Qty'])).toBe(
      'No: 8; Description: GPIO Header; Qty: 1; No: 17; Description: Fan; Qty: 1',
    );
    // The row's label is never merged into a value column, and a cell without a header stays alone.
    expect(rowText(['5V', '5V', '5V'], ['Rail', 'A', ''])).toBe('Rail: 5V; A: 5V; 5V');
  });

  it('never doubles a colon the header or the label already ends with', () => {
    // A header cell "Note：" (full width) or "Note:" read "Note：: /".
    expect(rowText(['2019', 'first release', '/'], ['Release Date', 'Product Change', 'Note：'])).toBe('Release Date: 2019; Product Change: first release; Note: /');
    expect(rowText(['2019', 'first release', '/'], ['Release Date', 'Product Change', 'Note:'])).toBe('Release Date: 2019; Product Change: first release; Note: /');
    expect(rowText(['Input voltage:', '5 V'], null)).toBe('Input voltage: 5 V');
    // A header of a colon alone names nothing: the cell stands alone.
    expect(rowText(['a', 'b', 'c'], ['H1', ':', 'H3'])).toBe('H1: a; b; H3: c');
  });
});
