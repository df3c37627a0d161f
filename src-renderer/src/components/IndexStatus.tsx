import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useStore } from '../store';
import type { IndexProgress, IndexTask } from '../store/library.slice';
import { progressNews, type ProgressHeard, type ProgressNews } from '../util/progress-news';

const count = (n: number) => n.toLocaleString();

function runningText(p: IndexProgress): string {
  switch (p.task) {
    case 'embedding':
      return `Embedding ${count(p.done)} / ${count(p.total)} chunks…`;
    case 'enriching':
      return `Enriching with the chat model ${count(p.done)} / ${count(p.total)} documents…`;
    case 'rebuilding':
      return `Rebuilding the index ${count(p.done)} / ${count(p.total)} documents…`;
  }
}

/**
 * How a task ended, said by itself: a short run's start and end reach the page in one batch, and
 * then this is all a screen reader hears of it, so it says what was done, not only the outcome. A
 * rebuild also runs when an embedder is first chosen, not only from "Rebuild index".
 */
function doneText(p: IndexProgress): string {
  if (p.task === 'rebuilding') {
    const upToDate = 'The index is up to date with this version of ManualMate.';
    return p.total === 0 ? upToDate : `Rebuilt the index of ${stepsText(p, p.total)}. ${upToDate}`;
  }
  if (p.task === 'embedding') return p.total === 0 ? 'Every chunk is embedded.' : `Embedded ${stepsText(p, p.total)}: meaning-based search covers the whole library.`;
  return p.total === 0 ? 'Every document is enriched with the chat model.' : `Enriched ${stepsText(p, p.total)} with the chat model.`;
}

/** The steps a task counts, `n` of them, in words ("1,204 chunks"). */
function stepsText(p: IndexProgress, n: number): string {
  const unit = p.task === 'embedding' ? 'chunk' : 'document';
  return `${count(n)} ${n === 1 ? unit : `${unit}s`}`;
}

/** What a screen reader is told of a task: that it started, now and then how far it got, how it ended. */
function newsText(news: ProgressNews, p: IndexProgress): string {
  if (news === 'finished') return p.error ?? doneText(p);
  const what = { embedding: 'Embedding', enriching: 'Enriching with the chat model', rebuilding: 'Rebuilding the index' }[p.task];
  if (news === 'started') return `${what}: ${stepsText(p, p.total)}. Search works meanwhile.`;
  return `${what}: ${count(p.done)} of ${stepsText(p, p.total)} done`;
}

/**
 * The news of a library's task for the live region (`progressNews`, as for imports): that it
 * started, how far it got at most every `PROGRESS_SAID_EVERY_MS`, how it ended. What the line
 * shows when it appears (or shows another library) is read with the screen, not said as news.
 */
function useIndexNews(library: string, progress: IndexProgress | undefined): string {
  const [said, setSaid] = useState('');
  const heard = useRef<{ library: string | null; tasks: Map<string, ProgressHeard> }>({ library: null, tasks: new Map() });
  useEffect(() => {
    const h = heard.current;
    const appearing = h.library !== library;
    if (appearing) {
      h.library = library;
      h.tasks.clear();
    }
    // Forgotten (a rebuild asked for again): its next report is a new start.
    if (!progress) return void h.tasks.clear();
    const finished = progress.error !== undefined || progress.done >= progress.total;
    const news = progressNews(h.tasks, library, { finished, count: progress.done }, Date.now());
    if (news === null || appearing) return;
    const words = newsText(news, progress);
    // The same words again (a second run of as many chunks) must still change the region.
    setSaid((was) => (was === words ? `${words}\u00a0` : words));
  }, [library, progress]);
  return said;
}

/**
 * One line about a background task that upgrades the library's chunks (embedding, LLM enrichment,
 * a rebuild of the whole index) while search keeps working: running count, the reason it stopped,
 * or (with `showDone`) that it finished. The line shows nothing when the engine has not reported
 * on the task this session. It is not live (each step was read out): one region beside it, in the
 * page whatever the line shows (a region added with its text is not read out), says the news.
 * `instead`: a state the library's summary holds, shown in place of the line.
 */
export function IndexStatus({ library, task, showDone = false, instead }: { library: string; task: IndexTask; showDone?: boolean; instead?: ReactNode }) {
  const progress = useStore((s) => s.indexProgress[library]?.[task]);
  const said = useIndexNews(library, progress);
  return (
    <>
      {instead ?? (progress ? <IndexLine progress={progress} showDone={showDone} /> : null)}
      <p role="status" className="visually-hidden" data-testid={`index-news-${task}`}>
        {said}
      </p>
    </>
  );
}

function IndexLine({ progress, showDone }: { progress: IndexProgress; showDone: boolean }) {
  const testId = `index-status-${progress.task}`;
  if (progress.error) {
    return (
      <p className="index-status index-status-error small" data-testid={testId} data-state="error">
        {progress.error}
      </p>
    );
  }
  // Finished only when the engine says so: it sends done == total after the last step (a rebuild's
  // swap included), never earlier, and a stop carries an error.
  if (progress.done >= progress.total) {
    return showDone ? (
      <p className="index-status muted small" data-testid={testId} data-state="done">
        {doneText(progress)}
      </p>
    ) : null;
  }
  return (
    <p className="index-status muted small" data-testid={testId} data-state="running">
      <span>
        {runningText(progress)} <span className="index-status-note">Search works meanwhile.</span>
      </span>
      <progress className="bar bar-thin" max={Math.max(1, progress.total)} value={progress.done} aria-label={runningText(progress)} />
    </p>
  );
}

/** What ends a wait for nouns (`LibrarySummary.waitsForNouns`), in words: it depends on the library's enrichment and the chosen chat model. */
function nounsWaitText(llmEnrichment: boolean, chatModel: boolean): string {
  const waits = 'Meaning-based search starts once every chunk has its signature’s nouns: embedding waits for them, and keyword search works meanwhile.';
  if (!llmEnrichment) return `${waits} Rebuilding the index (Settings › Index) gives them.`;
  if (chatModel) return `${waits} The chat model’s enrichment gives them as it reaches each document.`;
  return `${waits} The chat model’s enrichment gives them once a chat model is chosen in Settings; rebuilding the index gives them too.`;
}

/**
 * The library's embedding as the page can show it: while the library waits for its chunks' nouns
 * (a state the library's summary holds, so a page opened or reloaded after the engine said it once
 * shows it too) a calm note says what it waits for, in place of the line, where the engine's one
 * report of that wait read as an error; the news region still says that report when it comes.
 */
export function EmbeddingStatus({ library, showDone = false }: { library: string; showDone?: boolean }) {
  const waits = useStore((s) => s.libraries.find((l) => l.name === library)?.waitsForNouns === true);
  const llmEnrichment = useStore((s) => (s.libraries.find((l) => l.name === library)?.enrich ?? 'heuristic') !== 'heuristic');
  const chatModel = useStore((s) => !!s.appSettings?.chatModel);
  const note = waits ? (
    <p className="index-status muted small" role="note" data-testid="embedding-waits">
      {nounsWaitText(llmEnrichment, chatModel)}
    </p>
  ) : undefined;
  return <IndexStatus library={library} task="embedding" showDone={showDone} instead={note} />;
}
