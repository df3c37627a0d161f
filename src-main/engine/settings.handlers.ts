import type { Handlers } from '../contract/api';
import { fail, ok } from '../core/result';
import type { ModelRuntime } from '../models/runtime';
import type { Library, LibraryManager } from '../storage/library.store';
import type { RemoteSettingsStore } from './remote-settings';
import type { SettingsStore } from './settings';

/**
 * The app's `settings.*` handlers: reading the settings (with this computer's object-storage
 * view) and choosing the chat model. Object-storage settings are changed by team.ts.
 */

/** What the settings handlers share with the engine (`createEngine` makes them). */
export interface SettingsContext {
  settings: SettingsStore;
  remote: RemoteSettingsStore;
  models: ModelRuntime;
  libraries: LibraryManager;
  /** Starts a library's LLM enrichment job (background.ts). */
  startEnrichment: (lib: Library) => void;
}

export function settingsHandlers(ctx: SettingsContext): Pick<Handlers, 'settings.get' | 'settings.update'> {
  const { settings, remote, models, libraries, startEnrichment } = ctx;
  return {
    'settings.get': async () => ok({ ...(await settings.get()), remote: await remote.view() }),

    'settings.update': async ({ chatModel }) => {
      if (chatModel !== null) {
        const found = (await models.list()).find((m) => m.id === chatModel);
        if (!found || found.format !== 'gguf') return fail('not-found', `There is no GGUF chat model named "${chatModel}" in the models folders.`);
      }
      const next = await settings.update({ chatModel });
      if (chatModel !== null) for (const lib of await libraries.list()) if (lib.config.enrich !== 'heuristic') startEnrichment(lib);
      return ok(next);
    },
  };
}
