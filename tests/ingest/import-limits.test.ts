import { describe, expect, it } from 'vitest';
import { megabytes, sizeOver, tooLargeReason } from '../../src-main/ingest/import-limits';

describe('sizes in messages', () => {
  it('gives a limit and a size with one decimal below 100', () => {
    expect(megabytes(32 * 1024 * 1024)).toBe('32 MB');
    expect(megabytes(70 * 1024)).toBe('70 KB');
    expect(megabytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
    expect(megabytes(200 * 1024 * 1024)).toBe('200 MB');
  });

  it('never writes a file over a limit as the limit itself', () => {
    const limit = 32 * 1024 * 1024;
    // A 33.7 MB (decimal) file is 32.14 MiB: it read "limit 32 MB: it is 32 MB".
    expect(tooLargeReason(`it is ${sizeOver(33_700_000, limit)}`, megabytes(limit))).toBe('The file is too large to import (limit 32 MB): it is 32.1 MB.');
    expect(sizeOver(limit + 1, limit)).toBe('just over 32 MB');
    expect(sizeOver(200 * 1024 * 1024, limit)).toBe('200 MB');
  });
});
