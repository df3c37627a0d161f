import { corpusRoots } from '../helpers/temp';
import { describeChunkingInvariants } from './invariants.suite';

// The fixture cut of radxa-docs and esp-dev-kits; the same checks over the whole corpora are in
// invariants.corpus.test.ts (npm run test:corpus).
describeChunkingInvariants(corpusRoots.fixture, 5);
