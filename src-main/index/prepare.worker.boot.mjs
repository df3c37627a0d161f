// Entry of a prepare worker when the engine runs from its TypeScript sources and the CLI bundle is
// not current (tests, benchmarks, a source changed since the build): the worker thread registers
// tsx itself, then loads the worker module. A current bundle's compiled worker, and a bundled
// build's `prepare-worker.js`, are started directly instead (see `ingest/worker-entry.ts`).
import { register } from 'tsx/esm/api';

register();
await import(new URL('./prepare.worker.ts', import.meta.url).href);
