import { describe, expect, it } from 'vitest';
import { cleanInline } from '../../src-main/chat/sentences';

describe('cleanInline on HTML a page embeds', () => {
  it('shows the characters HTML writes as entities', () => {
    expect(cleanInline('refer to <a href="x.pdf">ESP32-C6 Datasheet</a> &gt; Section <em>Strapping Pins</em>.')).toBe('refer to ESP32-C6 Datasheet > Section Strapping Pins.');
    expect(cleanInline('Tom &amp; Jerry say &quot;hi&quot;, 1 &lt; 2, &amp;gt; stays an entity')).toBe('Tom & Jerry say "hi", 1 < 2, &gt; stays an entity');
  });

  it('shows every HTML named and numeric reference as its character, as the viewer does', () => {
    expect(cleanInline('Range: 0&ndash;5&nbsp;V, 10&nbsp;&micro;A at 25&deg;C &#8211; see &#x2264; 3&times;')).toBe('Range: 0–5 V, 10 µA at 25°C – see ≤ 3×');
  });

  it('decodes only references Markdown reads as such: a legacy name without ";" stays text', () => {
    // A Markdown renderer (markdown-it, remark) needs the ";"; an HTML page's lenient rules would
    // turn a URL's "&copy=" into "©=".
    expect(cleanInline('GET /q?a=1&copy=2&not=3 (R&D)')).toBe('GET /q?a=1&copy=2&not=3 (R&D)');
  });

  it('leaves code spans as written: what looks like a tag, an entity or a link in them is code', () => {
    // Modelled on seeed-xiao's XIAO SAMD21 page: "analogWrite(A0, `<value>`)" showed as "` `".
    expect(cleanInline('controlled using analogWrite(A0, `<value>`). See <b>DAC</b>.')).toBe('controlled using analogWrite(A0, `<value>`). See DAC.');
    expect(cleanInline('Run `a &amp;&amp; b` or ``echo [x](y) `z` `` &amp; more')).toBe('Run `a &amp;&amp; b` or ``echo [x](y) `z` `` & more');
    // Escaped backticks open no span: their text is read as any other.
    expect(cleanInline('Voltage: \\`- <b>Type-C</b>: 5V\\`')).toBe('Voltage: `- Type-C: 5V`');
  });

  it('drops a footnote\'s link back to its mark', () => {
    expect(cleanInline('<p>Used to drive the RGB LED.<a href="#fnref3" class="footnote-back" role="doc-backlink">↩︎</a></p>')).toBe('Used to drive the RGB LED.');
  });
});
