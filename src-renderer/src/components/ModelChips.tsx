import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../store';

/** Most chips shown before the rest fold into a count (series can have dozens of variants). */
const MAX_CHIPS = 24;

/**
 * Model filter chips from the models detected in the library's documents. `scope` says whose
 * chips they are: the chat's (the conversation's scope, shown in the composer) or search's own.
 * None selected lets the question decide.
 */
export function ModelChips({ scope }: { scope: 'chat' | 'search' }) {
  const models = useStore(
    useShallow((s) => {
      const counts = new Map<string, number>();
      for (const d of s.documents) if (d.status === 'ready') for (const m of d.models) counts.set(m, (counts.get(m) ?? 0) + 1);
      return [...counts.keys()].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
    }),
  );
  const selected = useStore((s) => (scope === 'chat' ? s.modelFilter : s.searchModels));
  const toggle = useStore((s) => (scope === 'chat' ? s.toggleModelFilter : s.toggleSearchModel));
  const clear = useStore((s) => (scope === 'chat' ? s.clearModelFilter : s.clearSearchModels));
  if (models.length === 0) return null;
  return (
    <div className="model-chips" role="group" aria-label={scope === 'chat' ? 'Answer for model' : 'Search models'} data-testid={`model-chips-${scope}`}>
      <span className="muted small">{scope === 'chat' ? (selected.length > 0 ? `Answering for ${selected.join(', ')}:` : 'Answer for model (none picked: the question decides):') : 'Search models:'}</span>
      {models.slice(0, MAX_CHIPS).map((m) => (
        <button key={m} type="button" className="chip" aria-pressed={selected.includes(m)} onClick={() => toggle(m)}>
          {m}
        </button>
      ))}
      {models.length > MAX_CHIPS ? <span className="muted small">+{models.length - MAX_CHIPS} more (type the model in your question)</span> : null}
      {selected.length > 0 ? (
        <button type="button" className="link-btn small" onClick={clear}>
          Any model
        </button>
      ) : null}
    </div>
  );
}
