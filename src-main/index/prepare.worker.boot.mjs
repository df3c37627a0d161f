// Entry of a prepare worker when the engine runs from its TypeScript sources (the CLI through tsx,
// tests): the worker thread registers tsx itself, then loads the worker module. Bundled builds
// start the compiled `prepare-worker.js` instead (see `prepare-pool.ts`).
import { register } from 'tsx/esm/api';

register();
await import(new URL('./prepare.worker.ts', import.meta.url).href);
