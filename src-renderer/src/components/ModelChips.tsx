import { useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../store';

/**
 * Most models shown as chips. A library of sibling manuals names dozens of models, and a row of
 * thirty chips pushed the composer up over half the window (and under the import panel at
 * 800x600); past this count the models are offered in one list instead, and only the picked ones
 * are chips.
 */
const INLINE_CHIPS = 8;

/**
 * The model scope from the models detected in the library's documents. `scope` says whose it is:
 * the chat's (the conversation's scope, shown in the composer) or search's own. None picked lets
 * the question decide.
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
  // The model chosen in the list, added with the button or Enter: a closed select fires `change`
  // on every arrow key and typed letter (Chromium on Linux and Windows), so adding on `change`
  // picked a model per key press and a keyboard user could not browse the list.
  const [pending, setPending] = useState('');
  const picker = useRef<HTMLSelectElement>(null);
  if (models.length === 0) return null;
  const add = () => {
    toggle(pending);
    setPending('');
    // Back to the list for the next model (the button just pressed is disabled now).
    requestAnimationFrame(() => picker.current?.focus());
  };
  const label = scope === 'chat' ? 'Answer for model' : 'Search models';
  const listed = models.length > INLINE_CHIPS;
  // The chips: every model when there are few; the picked ones (click to drop) when there are many.
  const chips = listed ? models.filter((m) => selected.includes(m)) : models;
  const unpicked = models.filter((m) => !selected.includes(m));
  return (
    <div className="model-chips" role="group" aria-label={label} data-testid={`model-chips-${scope}`}>
      <span className="muted small">{scope === 'chat' ? (selected.length > 0 ? `Answering for ${selected.join(', ')}:` : 'Model (none picked: the question decides):') : 'Search models:'}</span>
      {chips.map((m) => (
        <button key={m} type="button" className="chip" aria-pressed={selected.includes(m)} onClick={() => toggle(m)} title={listed ? (scope === 'chat' ? `Stop answering for ${m}` : `Stop limiting search to ${m}`) : undefined}>
          {m}
          {listed ? <span aria-hidden="true">{'\u00a0×'}</span> : null}
        </button>
      ))}
      {listed && unpicked.length > 0 ? (
        <>
          <select
            ref={picker}
            className="model-picker"
            aria-label={`${label}: choose one of ${models.length}`}
            data-testid={`model-picker-${scope}`}
            value={unpicked.includes(pending) ? pending : ''}
            onChange={(e) => setPending(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && unpicked.includes(pending)) {
                e.preventDefault();
                add();
              }
            }}
          >
            <option value="">{selected.length > 0 ? 'Another model…' : `Choose a model (${models.length})…`}</option>
            {unpicked.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="btn btn-small"
            disabled={!unpicked.includes(pending)}
            onClick={add}
          >
            {scope === 'chat' ? 'Answer for it' : 'Search it'}
          </button>
        </>
      ) : null}
      {selected.length > 0 ? (
        <button type="button" className="link-btn small" onClick={clear}>
          Any model
        </button>
      ) : null}
    </div>
  );
}
