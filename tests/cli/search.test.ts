import path from 'node:path';
import { corpusRoots } from '../helpers/temp';
import { describeCliSearch } from './search.suite';

// The fixture cut of the board corpora and its question file: each question names one of two or
// three sibling models whose documents share most of their text. The same bar as dev.jsonl on the
// whole corpora (Hit@1 >= .85), and no question may get the sibling's document first.
describeCliSearch(corpusRoots.fixture, path.join(corpusRoots.fixture, 'questions.jsonl'), 12, 0.85, { noDistractorFirst: true });
