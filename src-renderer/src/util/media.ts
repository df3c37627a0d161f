import { useSyncExternalStore } from 'react';

/**
 * The narrow layout of styles.css and panels.css (`@media (max-width: 820px)`), where the source
 * viewer takes the main column's place instead of sitting beside it.
 */
export const NARROW_LAYOUT = '(max-width: 820px)';

/** True while the window matches the CSS media query `query`; re-renders when that changes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    () => window.matchMedia(query).matches,
  );
}
