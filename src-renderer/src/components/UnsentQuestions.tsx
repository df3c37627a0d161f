import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../store';
import { MAX_QUESTION_CHARS } from '../util/messages';
import { focusQuestion } from './focus-question';
import { Icon } from './Icon';

/** Why "Ask again" does nothing now: said in its title and to screen readers. */
const ASK_AGAIN_BUSY = 'Another question is on its way: ask this one again once it is answered (or stopped).';

/**
 * Questions not answered that did not fit in the question box with what was typed there since:
 * each kept whole, to ask again as it is, to put in the box once there is room, or to dismiss.
 */
export function UnsentQuestions() {
  const unsent = useStore((s) => s.unsentQuestions);
  const draft = useStore((s) => s.questionDraft);
  // From the press that sends a question, not only once its answer shows: `askUnsent` sends nothing
  // while one is on its way (its scope saved, its conversation created, then answered).
  const busy = useStore((s) => s.pending !== null || s.streaming !== null);
  const { restoreUnsent, askUnsent, dismissUnsent } = useStore(
    useShallow((s) => ({ restoreUnsent: s.restoreUnsent, askUnsent: s.askUnsent, dismissUnsent: s.dismissUnsent })),
  );
  if (unsent.length === 0) return null;
  return (
    <ul className="unsent-questions" aria-label="Questions not answered" data-testid="unsent-questions">
      {unsent.map((question, i) => {
        // Put before what is typed, as the store does: the characters that must be freed first.
        const over = (draft.trim() ? question.length + 2 + draft.length : question.length) - MAX_QUESTION_CHARS;
        const hint = `unsent-hint-${i}`;
        return (
          <li key={question} className="unsent-question" data-testid="unsent-question">
            <span className="unsent-label small">Not answered:</span>
            <span className="unsent-text" title={question} data-testid="unsent-text">
              {question}
            </span>
            <span className="unsent-actions">
              {/* aria-disabled, not disabled: it stays in the Tab order with its reason, and focus on it
                  is not lost as the question on its way comes and goes. The title is its description. */}
              <button
                type="button"
                className="btn btn-small"
                aria-disabled={busy ? true : undefined}
                title={busy ? ASK_AGAIN_BUSY : undefined}
                onClick={() => {
                  if (!busy) void askUnsent(i);
                }}
              >
                Ask again
              </button>
              <button
                type="button"
                className="btn btn-small"
                disabled={over > 0}
                aria-describedby={over > 0 ? hint : undefined}
                onClick={() => {
                  if (restoreUnsent(i)) focusQuestion();
                }}
              >
                Put in the box
              </button>
              <button
                type="button"
                className="icon-btn"
                aria-label="Dismiss this question"
                title="Dismiss"
                onClick={() => {
                  dismissUnsent(i);
                  focusQuestion();
                }}
              >
                <Icon name="close" size={15} />
              </button>
            </span>
            {over > 0 ? (
              <span id={hint} className="muted small unsent-hint" data-testid="unsent-hint">
                To put it in the box, free {over} {over === 1 ? 'character' : 'characters'} there (at most {MAX_QUESTION_CHARS} together).
              </span>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
