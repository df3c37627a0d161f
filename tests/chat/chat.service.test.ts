import path from 'node:path';
import { corpusRoots } from '../helpers/temp';
import { describeExtractiveChat } from './chat.service.suite';

// The fixture cut of the board corpora (sibling E20C / E52C, ROCK 5A / 5B / 5B+ / 5C, ZERO 3W / 3E
// and ESP board revisions) and its question file.
describeExtractiveChat('the fixture corpus', corpusRoots.fixture, path.join(corpusRoots.fixture, 'questions.jsonl'), 10);
