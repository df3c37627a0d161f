/**
 * Gives focus back to `opener` when what closed left it nowhere (on <body>), so Esc or Close
 * does not drop a keyboard user at the top of the page; focus the user moved elsewhere stays.
 * `scroll`: bring `opener` into view (a control on a screen just drawn again), else leave the page where it is.
 */
export function restoreFocus(opener: Element | null, { scroll = false }: { scroll?: boolean } = {}): void {
  if (!(opener instanceof HTMLElement) || !opener.isConnected) return;
  const now = document.activeElement;
  if (now === null || now === document.body) opener.focus({ preventScroll: !scroll });
}
