import { describe, expect, it } from 'vitest';
import { htmlText } from '../../src-renderer/src/viewer/markdown.plugins';

describe('htmlText (raw HTML in manuals shown as its words)', () => {
  it('keeps the words of docsify and Docusaurus markup and drops its tags', () => {
    expect(htmlText('<div class="badge badge-pill badge-primary product_sku_tag">SKU:K016-C</div>')).toBe('SKU:K016-C');
    expect(htmlText('<div class="note">Warning: disconnect power.</div>')).toBe('Warning: disconnect power.');
    expect(htmlText('<p>Press <kbd>Reset</kbd> <b>twice</b>.</p><p>Then wait.</p>')).toBe('Press Reset twice. Then wait.');
    expect(htmlText('<td>5&nbsp;V &amp; 3.3&#8239;V</td>')).toBe('5 V & 3.3 V');
  });

  it('drops images, scripts, styles and comments whole, and a quoted ">" does not end a tag', () => {
    expect(htmlText('<div class="product_pic"><img src="assets/img/x.webp"></div>')).toBe('');
    expect(htmlText('A<img src=x onerror=alert(1)>B <script>alert(2)</script>C<style>p{}</style><!-- hidden -->D')).toBe('A B C D');
    expect(htmlText('<a title="a>b" href="#">link</a> <script>never closed')).toBe('link');
  });

  it('leaves text that only looks like markup', () => {
    expect(htmlText('<p>current < 2 A, 3 > 1</p>')).toBe('current < 2 A, 3 > 1');
  });
});
