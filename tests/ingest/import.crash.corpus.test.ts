import path from 'node:path';
import { corpusRoots } from '../helpers/temp';
import { describeImportCrash } from './import.crash.suite';

// radxa-docs as shipped in ../shared: 581 documents plus LICENSE.md and MANIFEST.txt.
describeImportCrash('import of ../shared radxa-docs killed at random moments', async () => ({ folder: path.join(corpusRoots.shared, 'radxa-docs'), documents: 583 }));
