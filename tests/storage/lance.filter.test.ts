import { describe, expect, it } from 'vitest';
import { normalizeModelKey } from '../../src-main/storage/chunk-store';
import { andWhere, filterToWhere, sqlIn, sqlString } from '../../src-main/storage/lance.filter';

describe('SQL quoting', () => {
  it('doubles single quotes and leaves everything else as data', () => {
    expect(sqlString("O'Brien")).toBe("'O''Brien'");
    expect(sqlString("x' OR '1'='1")).toBe("'x'' OR ''1''=''1'");
    expect(sqlString('back\\slash')).toBe("'back\\slash'");
  });

  it('turns an empty IN list into a predicate that matches nothing', () => {
    expect(sqlIn('doc_id', [])).toBe('false');
    expect(sqlIn('doc_id', ['a', 'a', 'b'])).toBe("doc_id IN ('a', 'b')");
  });
});

describe('filterToWhere', () => {
  it('returns null when nothing constrains', () => {
    expect(filterToWhere(undefined)).toBeNull();
    expect(filterToWhere({})).toBeNull();
  });

  it('ANDs the parts and keeps the unmodeled OR inside its own group', () => {
    expect(filterToWhere({ docIds: ['d'], models: ['RAC-225B'], includeUnmodeled: true, categories: ['Safety'] })).toBe(
      "(doc_id IN ('d')) AND (model_key IN ('rac225b') OR model_key IS NULL) AND (category IN ('Safety'))",
    );
  });

  it('drops model names with no letters or digits instead of matching everything', () => {
    expect(filterToWhere({ models: ['--', ' '] })).toBe('false');
  });

  it('andWhere skips nulls', () => {
    expect(andWhere(null, 'a = 1', null)).toBe('a = 1');
    expect(andWhere(null)).toBeNull();
  });
});

describe('normalizeModelKey', () => {
  it('compares model names by letters and digits, ignoring case and width', () => {
    expect(normalizeModelKey('RAC-225B')).toBe('rac225b');
    expect(normalizeModelKey(' rac 225 b ')).toBe('rac225b');
    expect(normalizeModelKey('ＲＡＣ－２２５Ｂ')).toBe('rac225b');
    expect(normalizeModelKey('ROCK 5B+')).toBe('rock5bplus');
    expect(normalizeModelKey('rock 5b plus')).toBe('rock5bplus');
    expect(normalizeModelKey('ROCK 5B')).not.toBe(normalizeModelKey('ROCK 5B+'));
    expect(normalizeModelKey('SM-G998B/DS')).toBe('smg998bds');
    expect(normalizeModelKey(null)).toBeNull();
    expect(normalizeModelKey('—')).toBeNull();
  });
});
