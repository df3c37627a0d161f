import { useStore } from '../store';
import type { IndexProgress, IndexTask } from '../store/library.slice';

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

function doneText(p: IndexProgress): string {
  if (p.task === 'rebuilding') return 'The index is up to date with this version of ManualMate.';
  if (p.task === 'embedding') return p.total === 0 ? 'Every chunk is embedded.' : `Embedded ${count(p.total)} ${p.total === 1 ? 'chunk' : 'chunks'}: meaning-based search covers the whole library.`;
  return p.total === 0 ? 'Every document is enriched with the chat model.' : `Enriched ${count(p.total)} ${p.total === 1 ? 'document' : 'documents'} with the chat model.`;
}

/**
 * One line about a background task that upgrades the library's chunks (embedding, LLM enrichment,
 * a rebuild of the whole index) while search keeps working: running count, the reason it stopped,
 * or (with `showDone`) that it finished. Renders nothing when the engine has not reported on the
 * task this session.
 */
export function IndexStatus({ library, task, showDone = false }: { library: string; task: IndexTask; showDone?: boolean }) {
  const progress = useStore((s) => s.indexProgress[library]?.[task]);
  if (!progress) return null;
  const testId = `index-status-${task}`;
  if (progress.error) {
    return (
      <p className="index-status index-status-error small" role="status" data-testid={testId} data-state="error">
        {progress.error}
      </p>
    );
  }
  // Finished only when the engine says so: it sends done == total after the last step (a rebuild's
  // swap included), never earlier, and a stop carries an error.
  if (progress.done >= progress.total) {
    return showDone ? (
      <p className="index-status muted small" role="status" data-testid={testId} data-state="done">
        {doneText(progress)}
      </p>
    ) : null;
  }
  return (
    <p className="index-status muted small" role="status" data-testid={testId} data-state="running">
      <span>
        {runningText(progress)} <span className="index-status-note">Search works meanwhile.</span>
      </span>
      <progress className="bar bar-thin" max={Math.max(1, progress.total)} value={progress.done} aria-label={runningText(progress)} />
    </p>
  );
}
