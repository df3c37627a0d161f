import { corpusRoots } from '../helpers/temp';
import { describeNormalizeOnCorpus } from './corpus.suites';

describeNormalizeOnCorpus(corpusRoots.shared, 658);
