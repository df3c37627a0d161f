import path from 'node:path';
import { corpusRoots, sharedDir } from '../../helpers/temp';
import { describeMarkdownParserOnCorpus } from '../corpus.suites';

describeMarkdownParserOnCorpus(corpusRoots.shared, path.join(sharedDir, 'bench', 'dev.jsonl'), 658);
