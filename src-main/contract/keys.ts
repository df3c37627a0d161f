/**
 * The contract's keys, with no dependencies, so the sandboxed preload can build `window.api`
 * from them without bundling zod. A test checks this list equals the keys of `contract`.
 */
export const CONTRACT_KEYS = [
  'app.info',
  'models.list',
  'libraries.list',
  'libraries.create',
  'libraries.rename',
  'libraries.delete',
  'libraries.configure',
  'libraries.rebuild',
  'libraries.cancelRebuild',
  'libraries.publish',
  'libraries.subscribe',
  'libraries.sync',
  'libraries.checkRemote',
  'documents.list',
  'documents.remove',
  'documents.chunks',
  'documents.source',
  'documents.original',
  'import.upload',
  'import.start',
  'import.cancel',
  'search.query',
  'search.prepare',
  'chat.list',
  'chat.create',
  'chat.get',
  'chat.rename',
  'chat.scope',
  'chat.delete',
  'chat.ask',
  'chat.stop',
  'chat.export',
  'settings.get',
  'settings.update',
  'settings.remote',
] as const;

export type ContractKey = (typeof CONTRACT_KEYS)[number];

/** IPC channel names: one per key, plus the event channel. */
export const ipcChannel = (key: ContractKey): string => `mm:${key}`;
export const EVENT_CHANNEL = 'mm:event';
