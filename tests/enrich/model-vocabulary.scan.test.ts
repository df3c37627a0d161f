import { corpusRoots } from '../helpers/temp';
import { describeBodyScanOnCorpus } from './model-vocabulary.scan.suite';

describeBodyScanOnCorpus(corpusRoots.fixture, ['radxa-docs', 'esp-dev-kits'], 6);
