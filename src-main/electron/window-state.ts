import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The main window's remembered bounds, in screen pixels (DIP). */
export interface WindowState {
  width: number;
  height: number;
  x?: number;
  y?: number;
  maximized?: boolean;
}

/** A display's work area, in screen pixels (DIP). */
export interface DisplayArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Smallest window the layout supports, in pixels; matches the window's minWidth/minHeight. */
export const MIN_WINDOW = { width: 720, height: 480 } as const;

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 100_000;

/**
 * Restores saved bounds only when they are sane and the window's title bar would be reachable:
 * at least 100 x 30 pixels of its top strip on one display (a monitor may have been unplugged).
 * Anything else — garbage, too small, off-screen — gives undefined, i.e. default bounds.
 */
export function parseWindowState(text: string, displays: readonly DisplayArea[]): WindowState | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null) return undefined;
  const s = raw as Record<string, unknown>;
  if (!isInt(s['width']) || !isInt(s['height']) || s['width'] < MIN_WINDOW.width || s['height'] < MIN_WINDOW.height) return undefined;
  const state: WindowState = { width: s['width'], height: s['height'], ...(s['maximized'] === true ? { maximized: true } : {}) };
  if (s['x'] === undefined && s['y'] === undefined) return state;
  if (!isInt(s['x']) || !isInt(s['y'])) return undefined;
  const x = s['x'];
  const y = s['y'];
  const reachable = displays.some((d) => {
    const w = Math.min(x + state.width, d.x + d.width) - Math.max(x, d.x);
    const h = Math.min(y + 30, d.y + d.height) - Math.max(y, d.y);
    return w >= 100 && h >= 30;
  });
  return reachable ? { ...state, x, y } : undefined;
}

/** Reads the saved state; undefined when there is none or it does not fit the current displays. */
export function readWindowState(file: string, displays: readonly DisplayArea[]): WindowState | undefined {
  try {
    return parseWindowState(readFileSync(file, 'utf8'), displays);
  } catch {
    return undefined;
  }
}

/**
 * Saves the state synchronously (the process may exit right after the window closes) and
 * atomically (temp file + rename), so a crash never leaves half a file.
 */
export function writeWindowState(file: string, state: WindowState): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(state));
  renameSync(tmp, file);
}
