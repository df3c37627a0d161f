import { describe, expect, it } from 'vitest';
import { headingKey } from '../../src-main/enrich/keys.heuristic';

describe('heading keys', () => {
  it('slugs each level below the title and joins them with "/"', () => {
    expect(headingKey(['Board', 'Über Größe', 'Wi-Fi 6 (802.11ax)'], 1)).toBe('über-größe/wi-fi-6-802-11ax');
    expect(headingKey(['Board', 'Setup'], 0)).toBe('board/setup');
    expect(headingKey(['Board'], 1)).toBeNull();
    expect(headingKey(['Board', '***'], 1)).toBeNull();
  });

  it('gives every heading its own slug, the same each time, however many headings came before', () => {
    const path = ['Board', 'Power supply', 'USB-C PD'];
    const before = headingKey(path, 1);
    // More distinct headings than the slugs kept between calls, so the kept ones are dropped on the way.
    for (let i = 0; i < 12_000; i++) expect(headingKey(['Board', `Section ${i}`], 1)).toBe(`section-${i}`);
    expect(headingKey(path, 1)).toBe(before);
    expect(before).toBe('power-supply/usb-c-pd');
  });
});
