import type { StateCreator } from 'zustand';
import type { Store } from './index';

/** The main area's screens. */
export type View = 'documents' | 'chat' | 'search' | 'inspector' | 'settings';
/** `system` follows prefers-color-scheme; the others override it. */
export type ThemeChoice = 'system' | 'light' | 'dark';

export interface UiSlice {
  view: View;
  theme: ThemeChoice;
  setView(view: View): void;
  setTheme(theme: ThemeChoice): void;
}

const THEME_KEY = 'manualmate.theme';

function storedTheme(): ThemeChoice {
  try {
    const v = localStorage.getItem(THEME_KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

/** Applies a theme choice to the document root (styles.css keys off `data-theme`). */
export function applyTheme(theme: ThemeChoice): void {
  if (theme === 'system') delete document.documentElement.dataset['theme'];
  else document.documentElement.dataset['theme'] = theme;
}

export const createUiSlice: StateCreator<Store, [], [], UiSlice> = (set) => ({
  view: 'documents',
  theme: storedTheme(),
  setView(view) {
    set({ view });
  },
  setTheme(theme) {
    try {
      if (theme === 'system') localStorage.removeItem(THEME_KEY);
      else localStorage.setItem(THEME_KEY, theme);
    } catch {
      // Storage can be unavailable (private windows); the choice then lasts for this session.
    }
    applyTheme(theme);
    set({ theme });
  },
});
