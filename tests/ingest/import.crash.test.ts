import { cp, readdir } from 'node:fs/promises';
import path from 'node:path';
import { corpusRoots } from '../helpers/temp';
import { describeImportCrash } from './import.crash.suite';

/** Copies of the fixture radxa-docs cut, each in its own folder, so the import lasts as long as one of the whole corpus. */
const COPIES = 16;

describeImportCrash('import killed at random moments', async (tmp) => {
  const source = path.join(corpusRoots.fixture, 'radxa-docs');
  const folder = path.join(tmp, 'generated', 'boards');
  for (let i = 1; i <= COPIES; i++) await cp(source, path.join(folder, `copy-${String(i).padStart(2, '0')}`), { recursive: true });
  const perCopy = (await readdir(source, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length;
  return { folder, documents: COPIES * perCopy };
});
