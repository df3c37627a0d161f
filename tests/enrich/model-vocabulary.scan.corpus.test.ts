import { corpusRoots } from '../helpers/temp';
import { describeBodyScanOnCorpus } from './model-vocabulary.scan.suite';

describeBodyScanOnCorpus(corpusRoots.shared, ['radxa-docs', 'esp-dev-kits', 'emanual', 'm5stack', 'seeed-xiao'], 35);
