import { describe, expect, it } from 'vitest';
import { cleanInline } from '../../src-main/chat/sentences';

describe('cleanInline on HTML a page embeds', () => {
  it('shows the characters HTML writes as entities', () => {
    expect(cleanInline('refer to <a href="x.pdf">ESP32-C6 Datasheet</a> &gt; Section <em>Strapping Pins</em>.')).toBe('refer to ESP32-C6 Datasheet > Section Strapping Pins.');
    expect(cleanInline('Tom &amp; Jerry say &quot;hi&quot;, 1 &lt; 2, &amp;gt; stays an entity')).toBe('Tom & Jerry say "hi", 1 < 2, &gt; stays an entity');
  });

  it('drops a footnote\'s link back to its mark', () => {
    expect(cleanInline('<p>Used to drive the RGB LED.<a href="#fnref3" class="footnote-back" role="doc-backlink">↩︎</a></p>')).toBe('Used to drive the RGB LED.');
  });
});
