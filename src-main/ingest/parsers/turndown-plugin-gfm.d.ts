// @joplin/turndown-plugin-gfm ships no type declarations; this declares the part the parsers use.
declare module '@joplin/turndown-plugin-gfm' {
  import type TurndownService from 'turndown';

  /** Tables, strikethrough, task lists and highlighted code blocks. */
  export const gfm: TurndownService.Plugin;
  export const tables: TurndownService.Plugin;
  export const strikethrough: TurndownService.Plugin;
  export const taskListItems: TurndownService.Plugin;
  export const highlightedCodeBlock: TurndownService.Plugin;
}
