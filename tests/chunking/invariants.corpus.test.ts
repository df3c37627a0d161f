import { corpusRoots } from '../helpers/temp';
import { describeChunkingInvariants } from './invariants.suite';

// Every Markdown file of ../shared/corpus/radxa-docs and esp-dev-kits (hundreds of documents each).
describeChunkingInvariants(corpusRoots.shared, 50);
