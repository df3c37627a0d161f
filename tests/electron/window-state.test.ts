import { describe, expect, it } from 'vitest';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseWindowState, readWindowState, writeWindowState } from '../../src-main/electron/window-state';
import { tempDir } from '../helpers/temp';

const laptop = [{ x: 0, y: 0, width: 1920, height: 1040 }];
const twoScreens = [...laptop, { x: 1920, y: 0, width: 2560, height: 1400 }];

describe('remembered window state', () => {
  it('restores bounds that fit a connected display', () => {
    const saved = JSON.stringify({ width: 1200, height: 800, x: 2100, y: 100, maximized: true });
    expect(parseWindowState(saved, twoScreens)).toEqual({ width: 1200, height: 800, x: 2100, y: 100, maximized: true });
  });

  it('forgets the position when the display it was on is gone, but never restores it off-screen', () => {
    const saved = JSON.stringify({ width: 1200, height: 800, x: 2100, y: 100 });
    expect(parseWindowState(saved, laptop)).toBeUndefined();
    // Title bar above the top edge: unreachable.
    expect(parseWindowState(JSON.stringify({ width: 1200, height: 800, x: 100, y: -200 }), laptop)).toBeUndefined();
    // Mostly off the right edge but 150 px of title bar still grabbable: fine.
    expect(parseWindowState(JSON.stringify({ width: 1200, height: 800, x: 1770, y: 0 }), laptop)).toMatchObject({ x: 1770 });
  });

  it('ignores garbage, too-small windows and non-integer numbers', () => {
    for (const text of ['', 'null', '[]', '{"width":"1200","height":800}', '{"width":300,"height":200}', '{"width":1200.5,"height":800}', '{"width":1200,"height":800,"x":10}', '{']) {
      expect(parseWindowState(text, laptop), text).toBeUndefined();
    }
    expect(parseWindowState('{"width":1200,"height":800}', laptop)).toEqual({ width: 1200, height: 800 });
  });

  it('writes atomically and reads back what it wrote', async () => {
    const tmp = await tempDir('manualmate-window-state-');
    try {
      const file = path.join(tmp.dir, 'nested', 'window-state.json');
      expect(readWindowState(file, laptop)).toBeUndefined();
      writeWindowState(file, { width: 1000, height: 700, x: 40, y: 30, maximized: false });
      expect(readWindowState(file, laptop)).toEqual({ width: 1000, height: 700, x: 40, y: 30 });
      await writeFile(file, '{"width":');
      expect(readWindowState(file, laptop)).toBeUndefined();
      writeWindowState(file, { width: 800, height: 600 });
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ width: 800, height: 600 });
      expect(await readdir(path.dirname(file))).toEqual(['window-state.json']);
    } finally {
      await tmp.cleanup();
    }
  });
});
