// Entry of a parse worker when the engine runs from its TypeScript sources (the CLI through tsx,
// tests): the worker thread registers tsx itself, then loads the worker module. Bundled builds
// start the compiled `parse-worker.js` instead (see `parse-pool.ts`).
import { register } from 'tsx/esm/api';

register();
await import(new URL('./parse.worker.ts', import.meta.url).href);
