import path from 'node:path';
import { corpusRoots, sharedDir } from '../helpers/temp';
import { describeExtractiveChat } from './chat.service.suite';

// ~660 near-duplicate board documents in ../shared and the dev question file.
describeExtractiveChat('the shared corpora', corpusRoots.shared, path.join(sharedDir, 'bench', 'dev.jsonl'), 10);
