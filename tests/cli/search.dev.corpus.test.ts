import path from 'node:path';
import { corpusRoots, sharedDir } from '../helpers/temp';
import { describeCliSearch } from './search.suite';

// The retrieval acceptance target of issue 6: ../shared's board corpora (~660 near-duplicate
// documents) and the 40 questions of dev.jsonl, Hit@1 >= .85.
describeCliSearch(corpusRoots.shared, path.join(sharedDir, 'bench', 'dev.jsonl'), 40, 0.85);
