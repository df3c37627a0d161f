import { describe, expect, it } from 'vitest';
import { plainText } from '../../src-main/enrich/text.util';

describe('plainText', () => {
  it('keeps only the prose of every Markdown and MDX construct it removes', () => {
    const md = [
      '---',
      'title: Front matter',
      '---',
      "import Tabs from '@theme/Tabs';",
      '# ROCK 5B *power* _input_',
      '<!-- hidden note -->',
      '![Board photo](img/rock5b.png) See the [pinout](./pinout.md) at https://docs.radxa.com/rock5b.',
      'Mail support@radxa.com or run ./flash.sh from ../tools.',
      '<TabItem value="ROCK 5B+">Use a 12 V &amp; 2 A adapter.</TabItem>',
      '| Pin | Signal |',
      '| --- | ------ |',
      '| 1 | GPIO3_A4 |',
      '```sh',
      'sudo reboot',
      '```',
      '> Tip: ~~old~~ `code` stays as words.',
    ].join('\n');
    expect(plainText(md)).toBe(
      'ROCK 5B power input Board photo See the pinout at Mail or run from ROCK 5B+ Use a 12 V 2 A adapter. Pin Signal 1 GPIO3_A4 Tip: old code stays as words.',
    );
  });

  it('leaves text without any markup as it is, whitespace collapsed', () => {
    expect(plainText('  The fan\n\n spins at 1200 rpm.  ')).toBe('The fan spins at 1200 rpm.');
  });
});
